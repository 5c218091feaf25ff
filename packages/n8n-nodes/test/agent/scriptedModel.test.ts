/**
 * The scripted chat model (tools/n8n/scriptedModel.ts) as n8n's OpenAI Chat Model node calls
 * it: through the OpenAI client n8n 2.41.1 ships (`@langchain/openai`'s ChatOpenAI, from the
 * installed n8n), whole and streamed, a tool call and the reply that quotes its result.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  UNSCRIPTED,
  answer,
  fill,
  startScriptedModel,
  type Script,
  type ScriptedModel,
} from '@paykit/tools/n8n/scriptedModel'
import { N8N_DIR, ensureN8n } from '@paykit/tools/n8n/stack'

interface ToolCall {
  readonly name: string
  readonly args: Record<string, unknown>
  readonly id?: string
}
interface AiMessage {
  readonly content: unknown
  readonly tool_calls?: ReadonlyArray<ToolCall>
  concat: (other: AiMessage) => AiMessage
}
interface Chat {
  invoke: (messages: ReadonlyArray<unknown>) => Promise<AiMessage>
  stream: (messages: ReadonlyArray<unknown>) => Promise<AsyncIterable<AiMessage>>
  bindTools: (tools: ReadonlyArray<unknown>) => Chat
}

const script: Script = [
  {
    when: 'buy (\\d+) (\\w+)',
    steps: [
      {
        call: {
          tool: 'create_payment_link',
          arguments: { sku: '{{match.2}}', quantity: '{{match.1}}' },
        },
      },
      { say: 'Pay here: {{result.0.paymentLinkUrl}} ({{result.0.amount}} {{result.0.currency}})' },
    ],
  },
  { when: 'hello', steps: [{ say: 'Hello! We sell mugs.' }] },
]

const linkTool = {
  type: 'function',
  function: {
    name: 'create_payment_link',
    description: 'Create a payment link for a catalog product',
    parameters: {
      type: 'object',
      properties: { sku: { type: 'string' }, quantity: { type: 'string' } },
      required: ['sku', 'quantity'],
    },
  },
}

let model: ScriptedModel
let ChatOpenAI: new (fields: Record<string, unknown>) => Chat
let messages: {
  HumanMessage: new (text: string) => unknown
  AIMessage: new (fields: Record<string, unknown>) => unknown
  ToolMessage: new (fields: Record<string, unknown>) => unknown
}

beforeAll(async () => {
  ensureN8n()
  const require = createRequire(`${N8N_DIR}/node_modules/n8n/package.json`)
  ;({ ChatOpenAI } = require('@langchain/openai') as { ChatOpenAI: typeof ChatOpenAI })
  messages = require('@langchain/core/messages') as typeof messages
  model = await startScriptedModel({ script })
})
afterAll(async () => {
  await model.stop()
})

const chat = (streaming: boolean): Chat =>
  new ChatOpenAI({
    apiKey: 'scripted-local',
    model: 'scripted',
    streaming,
    maxRetries: 0,
    configuration: { baseURL: model.url },
  }).bindTools([linkTool])

const toolResult = JSON.stringify([
  { paymentLinkUrl: 'http://127.0.0.1:1/pay/ABC', amount: '25.00', currency: 'USD' },
])

const conversation = (call: ToolCall) => [
  new messages.HumanMessage('I want to buy 2 MUG'),
  new messages.AIMessage({ content: '', tool_calls: [{ ...call, id: call.id ?? 'c1' }] }),
  new messages.ToolMessage({ content: toolResult, tool_call_id: call.id ?? 'c1' }),
]

describe.each([false, true])(
  'the scripted model through ChatOpenAI (streaming: %s)',
  (streaming) => {
    const ask = async (history: ReadonlyArray<unknown>): Promise<AiMessage> => {
      if (!streaming) return await chat(false).invoke(history)
      let whole: AiMessage | undefined
      for await (const part of await chat(true).stream(history))
        whole = whole === undefined ? part : whole.concat(part)
      if (whole === undefined) throw new Error('no chunk')
      return whole
    }

    it('calls the tool the script names, with arguments from the user message', async () => {
      const reply = await ask([new messages.HumanMessage('I want to buy 2 MUG')])
      expect(reply.tool_calls).toHaveLength(1)
      expect(reply.tool_calls?.[0]).toMatchObject({
        name: 'create_payment_link',
        args: { sku: 'MUG', quantity: '2' },
      })
      const seen = model.requests().at(-1)
      expect(seen?.stream).toBe(streaming)
      expect(seen?.tools).toEqual(['create_payment_link'])
    })

    it("answers the tool's result with the scripted reply, quoting it", async () => {
      const first = await ask([new messages.HumanMessage('I want to buy 2 MUG')])
      const call = first.tool_calls?.[0]
      if (call === undefined) throw new Error('no tool call')
      const reply = await ask(conversation(call))
      expect(reply.tool_calls ?? []).toEqual([])
      expect(reply.content).toBe('Pay here: http://127.0.0.1:1/pay/ABC (25.00 USD)')
    })

    it('says the unscripted reply to a message no turn matches', async () => {
      expect((await ask([new messages.HumanMessage('what is the weather?')])).content).toBe(
        UNSCRIPTED,
      )
    })
  },
)

describe('the script', () => {
  it('chooses the turn by the last user message and the step by the replies since', () => {
    expect(answer(script, [{ role: 'user', content: 'hello there' }])).toEqual({
      kind: 'text',
      text: 'Hello! We sell mugs.',
    })
    // A step past the turn's end: the unscripted reply, not a repeated tool call.
    expect(
      answer(script, [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'Hello! We sell mugs.' },
        { role: 'assistant', content: 'again' },
      ]),
    ).toEqual({ kind: 'text', text: UNSCRIPTED })
  })

  it('fills placeholders from the last tool result and the match, empty when absent', () => {
    expect(
      fill('{{result.0.a}}/{{result.0.b.c}}/{{match.1}}/{{result.9}}', '[{"a":"x","b":{"c":2}}]', [
        'all',
        'g',
      ]),
    ).toBe('x/2/g/')
    expect(fill('{{result}}', 'not json', [])).toBe('not json')
    // A one-item list read by a name: its item's member.
    expect(fill('{{result.a}}', '[{"a":"x"}]', [])).toBe('x')
  })

  it('serves the model list and refuses a body without messages, naming the field', async () => {
    const models = (await (await fetch(`${model.url}/models`)).json()) as {
      data: Array<{ id: string }>
    }
    expect(models.data.map((m) => m.id)).toEqual(['scripted'])
    const res = await fetch(`${model.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'scripted' }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^messages:/,
    )
  })
})

describe('tools/n8n/salesAssistantScript.json, the script for trying the template offline', () => {
  const sales = JSON.parse(
    readFileSync(
      new URL('../../../../tools/n8n/salesAssistantScript.json', import.meta.url),
      'utf8',
    ),
  ) as Script
  const first = (text: string) => answer(sales, [{ role: 'user', content: text }])

  it('sells a catalog product to the email the buyer gives, the price left to the shop', () => {
    expect(first('Hi, 2 MUG for ana@example.com please')).toEqual({
      kind: 'calls',
      calls: [
        {
          tool: 'create_payment_link',
          arguments: { sku: 'MUG', quantity: '2', email: 'ana@example.com' },
        },
      ],
    })
  })

  it("asks for approval when told to, with the arguments n8n's review expects", () => {
    expect(first('ok, ask the owner to approve 2 TICKET for ana@example.com')).toEqual({
      kind: 'calls',
      calls: [
        {
          tool: 'create_payment_link_with_approval',
          arguments: {
            toolParameters: { sku: 'TICKET', quantity: '2', email: 'ana@example.com' },
            hitlParameters: {},
          },
        },
      ],
    })
  })

  it('reads an order back and lists the catalog', () => {
    expect(first('have I paid OC00001001?')).toMatchObject({
      calls: [{ tool: 'get_order', arguments: { orderCode: 'OC00001001' } }],
    })
    expect(first('what do you sell?')).toMatchObject({ calls: [{ tool: 'read_catalog' }] })
  })

  it('quotes the tool answer in the reply', () => {
    expect(
      answer(sales, [
        { role: 'user', content: 'have I paid OC00001001?' },
        { role: 'assistant', content: null, tool_calls: [{}] },
        { role: 'tool', content: '[{"orderCode":"OC00001001","orderStatus":"PAID","total":25}]' },
      ]),
    ).toEqual({ kind: 'text', text: 'Order OC00001001 is PAID (25).' })
  })
})
