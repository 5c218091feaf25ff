// What a run of the service's flows through a generated client is given and what it finds
// (./openapiFetch.flows.ts, ./heyApi.flows.ts; run by ../codegen.test.ts against the sandbox).

/** The sandbox, its credentials and a card whose charges ask for 3DS. */
export interface FlowInputs {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly apiKey: string
  readonly card3ds: string
  /** The merchant's order id of the charge (one per run: a second charge would be a duplicate). */
  readonly orderId: string
}

/** What each step answered, read through the generated types. */
export interface FlowResults {
  readonly tokenType: string
  readonly cardBrand: string
  readonly charge: string
  readonly authenticationPage: number
  readonly chargeAfter3ds: string
  readonly chargedReference: string
  readonly linkOrderCode: string
  readonly orderStatus: string
  readonly orderTotal: number
  readonly badRequest: {
    readonly status: number
    readonly fields: ReadonlyArray<string>
    readonly detail: string | undefined
  }
  readonly unauthorized: { readonly status: number; readonly title: string }
}
