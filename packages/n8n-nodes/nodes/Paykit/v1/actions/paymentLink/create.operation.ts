/**
 * Payment Link → Create: a hosted payment link for an order, from the node's fields or the
 * whole request from the input item. Safe to run side by side and as an AI tool: a link
 * creation is repeated only when the user opts in. Its fields: `create.description.ts`; the
 * request of an item, converted and validated once: `createRequest.ts`, sent as it is
 * (`createValidatedPaymentLink`); One Link per Order Reference and its outputs:
 * `oneLinkPerReference.ts`.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { PaymentLinkRequest } from '@paykit/core/pure'
import { PaymentLinkResponse } from '@paykit/core/pure'
import type { IDataObject } from 'n8n-workflow'
import type { Operation } from '../../helpers/items'
import { linkRequestOf } from './createRequest'
import type { Claim } from './oneLinkPerReference'
import { claimOf, createOnce, settleClaims } from './oneLinkPerReference'

/** Payment Link → Create: its entry in the Operation list, its fields and options. */
export { description } from './create.description'

/** Created and Already Requested with One Link per Order Reference, else one output. */
export { outputs, route } from './oneLinkPerReference'

interface CreateInput {
  readonly request: PaymentLinkRequest
  readonly retry: boolean
  readonly once: Claim | undefined
}

const createLink = (
  client: Parameters<Operation<CreateInput>['send']>[0],
  { request, retry }: CreateInput,
  signal: AbortSignal | undefined,
) =>
  pipe(
    client.createValidatedPaymentLink(request, { retry, ...(signal ? { signal } : {}) }),
    TE.map((link): IDataObject => PaymentLinkResponse.encode(link)),
  )

/** Payment Link → Create: items side by side; an AI agent may run it. */
export const operation: Operation<CreateInput> = {
  concurrent: true,
  toolSafe: true,
  prepare: (ctx, i) =>
    pipe(
      linkRequestOf(ctx, i),
      E.map((request) => ({
        request,
        retry: (ctx.getNodeParameter('options.retryUncertain', i, false) as boolean) === true,
        once: claimOf(ctx, i, request.orderReference),
      })),
    ),
  send: (client, input, signal) =>
    input.once === undefined
      ? createLink(client, input, signal)
      : createOnce(input.once, createLink(client, input, signal)),
  finish: settleClaims,
}
