/**
 * A scripted chat model: an OpenAI-compatible chat-completions endpoint on 127.0.0.1 that
 * answers from a script instead of a hosted model, so that an n8n AI Agent (its OpenAI Chat
 * Model node, the credential's Base URL pointed here) runs offline and the same way every
 * time. It speaks `POST /v1/chat/completions` as the OpenAI client n8n ships calls it:
 * non-streaming and streaming (server-sent events), tool calls included, and `GET
 * /v1/models` for the node's model list.
 *
 * A script is a list of turns. The turn is chosen by the last user message (the first turn
 * whose `when` matches it); the step within the turn by how many assistant messages follow
 * that user message (a step is a tool call, or the reply that ends the turn). Texts and
 * arguments may quote the last tool result (`{{result}}`, `{{result.path.0.key}}` when it
 * is JSON) and the user message's groups (`{{match.1}}`), so a reply can give what a tool
 * really answered. Plain erasable TypeScript with only `node:` imports: Node runs it as it
 * is (`node tools/n8n/scriptedModel.ts --port 4020 --script <file.json>`).
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A tool call the model makes: the tool's name as n8n offers it, and its arguments. */
export interface ScriptedCall {
  readonly tool: string
  readonly arguments: Readonly<Record<string, unknown>>
}

/** One step of a turn: call a tool, or say something (which ends the turn). */
export type ScriptedStep = { readonly call: ScriptedCall } | { readonly say: string }

/** A turn: chosen when the last user message matches `when` (a regular expression, case-insensitive). */
export interface ScriptedTurn {
  readonly when: string
  readonly steps: ReadonlyArray<ScriptedStep>
}

/** The model's script: its turns, tried in order. */
export type Script = ReadonlyArray<ScriptedTurn>

/** A chat-completions message as the OpenAI client sends it (the parts the script reads). */
export interface ChatMessage {
  readonly role: string
  readonly content?:
    string | ReadonlyArray<{ readonly type?: string; readonly text?: string }> | null
  readonly tool_calls?: ReadonlyArray<unknown>
  readonly tool_call_id?: string
}

/** A request the model received: its messages, the tools offered, whether it streamed. */
export interface ModelRequest {
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools: ReadonlyArray<string>
  readonly stream: boolean
}

/** The running model: its base URL (for the credential), what it received, its stop. */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1`: the OpenAI credential's Base URL. */
  readonly url: string
  readonly port: number
  /** Every request received, oldest first. */
  readonly requests: () => ReadonlyArray<ModelRequest>
  /** Replaces the script (the next request reads the new one). */
  readonly setScript: (script: Script) => void
  readonly stop: () => Promise<void>
}

/** What the model answers: a text, or tool calls. */
export type Answer =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'calls'; readonly calls: ReadonlyArray<ScriptedCall> }

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** What a script says when no turn matches or a turn has run out of steps. */
export const UNSCRIPTED =
  'I can only help with the shop: ask what it sells, or to buy one of its products.'

/** The text of a message's content (a string, or the text parts of a list). */
export const textOf = (message: ChatMessage): string =>
  typeof message.content === 'string'
    ? message.content
    : (message.content ?? []).map((part) => part.text ?? '').join('')

// A one-item list read by a name is read as its item: n8n gives a tool's items as a list.
const pathValue = (value: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((at, key) => {
    const from = Array.isArray(at) && at.length === 1 && !/^\d+$/.test(key) ? at[0] : at
    return typeof from === 'object' && from !== null
      ? (from as Record<string, unknown>)[key]
      : undefined
  }, value)

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * `text` with its `{{result...}}` and `{{match.N}}` placeholders filled: the last tool
 * result (parsed when JSON; n8n gives a tool's items as a JSON array), the user message's
 * regular-expression groups. A placeholder with no value is left empty.
 */
export const fill = (text: string, result: string, match: ReadonlyArray<string>): string =>
  text.replace(
    /\{\{\s*(result|match)((?:\.[\w-]+)*)\s*\}\}/g,
    (_, source: string, rest: string) => {
      const path = rest.split('.').filter((p) => p !== '')
      if (source === 'match') return match[Number(path[0] ?? 0)] ?? ''
      if (path.length === 0) return result
      const value = pathValue(parsed(result), path)
      if (value === undefined || value === null) return ''
      return typeof value === 'string' ? value : JSON.stringify(value)
    },
  )

const fillValue = (value: unknown, result: string, match: ReadonlyArray<string>): unknown =>
  typeof value === 'string'
    ? fill(value, result, match)
    : Array.isArray(value)
      ? value.map((v) => fillValue(v, result, match))
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, fillValue(v, result, match)]),
          )
        : value

/** What the script answers to a conversation (the request's messages). */
export const answer = (script: Script, messages: ReadonlyArray<ChatMessage>): Answer => {
  const lastUser = messages.findLastIndex((m) => m.role === 'user')
  const said = lastUser === -1 ? '' : textOf(messages[lastUser] as ChatMessage)
  const after = messages.slice(lastUser + 1)
  const step = after.filter((m) => m.role === 'assistant').length
  const lastTool = after.findLast((m) => m.role === 'tool')
  const result = lastTool === undefined ? '' : textOf(lastTool)
  for (const turn of script) {
    const match = new RegExp(turn.when, 'i').exec(said)
    if (match === null) continue
    const next = turn.steps[step]
    const groups = [...match].map((g) => g ?? '')
    if (next === undefined) return { kind: 'text', text: UNSCRIPTED }
    return 'say' in next
      ? { kind: 'text', text: fill(next.say, result, groups) }
      : {
          kind: 'calls',
          calls: [
            {
              tool: next.call.tool,
              arguments: fillValue(next.call.arguments, result, groups) as Record<string, unknown>,
            },
          ],
        }
  }
  return { kind: 'text', text: UNSCRIPTED }
}

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

interface ChatRequestBody {
  readonly model?: string
  readonly messages?: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<{ readonly function?: { readonly name?: string } }>
  readonly stream?: boolean
  readonly stream_options?: { readonly include_usage?: boolean }
}

const USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }

const toolCallsOf = (calls: ReadonlyArray<ScriptedCall>, id: string) =>
  calls.map((call, index) => ({
    index,
    id: `call_${id}_${String(index)}`,
    type: 'function' as const,
    function: { name: call.tool, arguments: JSON.stringify(call.arguments) },
  }))

/** The non-streaming body (`chat.completion`) of an answer. */
export const completionOf = (reply: Answer, model: string, id: string) => ({
  id: `chatcmpl-${id}`,
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model,
  choices: [
    {
      index: 0,
      message:
        reply.kind === 'text'
          ? { role: 'assistant', content: reply.text }
          : {
              role: 'assistant',
              content: null,
              tool_calls: toolCallsOf(reply.calls, id).map(({ index: _, ...call }) => call),
            },
      finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls',
      logprobs: null,
    },
  ],
  usage: USAGE,
})

/** The streamed chunks (`chat.completion.chunk`) of an answer, as OpenAI sends them. */
export const chunksOf = (reply: Answer, model: string, id: string, usage: boolean) => {
  const base = {
    id: `chatcmpl-${id}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
  }
  const chunk = (delta: object, finish: string | null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  })
  // A text in a few pieces, a tool call's arguments in two: the client joins them.
  const pieces =
    reply.kind === 'text'
      ? (reply.text.match(/[\s\S]{1,24}/g) ?? ['']).map((content) => chunk({ content }, null))
      : toolCallsOf(reply.calls, id).flatMap((call) => {
          const args = call.function.arguments
          const half = Math.ceil(args.length / 2)
          return [
            chunk(
              {
                tool_calls: [
                  {
                    index: call.index,
                    id: call.id,
                    type: 'function',
                    function: { name: call.function.name, arguments: args.slice(0, half) },
                  },
                ],
              },
              null,
            ),
            chunk(
              { tool_calls: [{ index: call.index, function: { arguments: args.slice(half) } }] },
              null,
            ),
          ]
        })
  return [
    chunk({ role: 'assistant', content: reply.kind === 'text' ? '' : null }, null),
    ...pieces,
    chunk({}, reply.kind === 'text' ? 'stop' : 'tool_calls'),
    ...(usage ? [{ ...base, choices: [], usage: USAGE }] : []),
  ]
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const readBody = async (req: IncomingMessage): Promise<string> => {
  const parts: Array<Buffer> = []
  for await (const part of req) parts.push(part as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** An OpenAI-style error body (`error.message`), which the OpenAI client shows. */
const errorOf = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: null, code: null },
})

/** Starts the scripted model on 127.0.0.1 (`port` 0: any free port). */
export const startScriptedModel = async (options: {
  readonly script: Script
  readonly port?: number
  readonly log?: (line: string) => void
}): Promise<ScriptedModel> => {
  let script = options.script
  const received: Array<ModelRequest> = []
  let served = 0
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0] ?? ''
    if (req.method === 'GET' && /\/models$/.test(path))
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'paykit' }],
      })
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(path))
      return sendJson(
        res,
        404,
        errorOf(
          `${req.method ?? ''} ${path}: not served (POST /v1/chat/completions, GET /v1/models)`,
        ),
      )
    let body: ChatRequestBody
    try {
      body = JSON.parse(await readBody(req)) as ChatRequestBody
    } catch {
      return sendJson(res, 400, errorOf('the body is not JSON'))
    }
    if (!Array.isArray(body.messages))
      return sendJson(res, 400, errorOf('messages: required, a list of chat messages'))
    const request: ModelRequest = {
      messages: body.messages,
      tools: (body.tools ?? []).map((t) => t.function?.name ?? ''),
      stream: body.stream === true,
    }
    received.push(request)
    const reply = answer(script, body.messages)
    const id = String(++served)
    const model = body.model ?? 'scripted'
    options.log?.(
      `scripted model: request ${id} (${request.stream ? 'streamed' : 'whole'}, ${String(request.tools.length)} tools): ${reply.kind === 'text' ? 'says' : `calls ${reply.calls.map((c) => c.tool).join(', ')}`}`,
    )
    if (!request.stream) return sendJson(res, 200, completionOf(reply, model, id))
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    for (const chunk of chunksOf(reply, model, id, body.stream_options?.include_usage === true))
      res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    res.end('data: [DONE]\n\n')
  }
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorOf(String(error)))
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${String(port)}/v1`,
    port,
    requests: () => received,
    setScript: (next) => {
      script = next
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// -------------------------------------------------------------------------------------
// command
// -------------------------------------------------------------------------------------

/** `node tools/n8n/scriptedModel.ts [--port N] [--script file.json]`: runs until stopped. */
const main = async (argv: ReadonlyArray<string>): Promise<void> => {
  const option = (name: string) => {
    const i = argv.indexOf(name)
    return i === -1 ? undefined : argv[i + 1]
  }
  const file = option('--script')
  const script = file === undefined ? [] : (JSON.parse(readFileSync(file, 'utf8')) as Script)
  const model = await startScriptedModel({
    script,
    port: Number(option('--port') ?? 4020),
    log: (line) => process.stdout.write(`${line}\n`),
  })
  process.stdout.write(
    `scripted model: ${model.url} (OpenAI-compatible; ${String(script.length)} scripted turns${file === undefined ? '' : ` from ${file}`})\n`,
  )
  const stop = () => void model.stop().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await main(process.argv.slice(2))
