// A bare node:http server answering every request with the response given as JSON in its
// last argument ({ status, headers, body }): the peer each sandbox figure is compared with.
// Started as the sandbox is (`--port <n>` first, then `listening on <url>` once it listens).
import { Buffer } from 'node:buffer'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  options: { port: { type: 'string', default: '0' } },
  allowPositionals: true,
})
const { status, headers, body } = JSON.parse(positionals.at(-1))
const bytes = Buffer.from(body, 'utf8')
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(status, { ...headers, 'content-length': String(bytes.length) })
    res.end(bytes)
  })
})
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`)
})
process.on('SIGINT', () => server.close(() => process.exit(0)))
server.keepAliveTimeout = 5000
