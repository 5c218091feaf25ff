// A bare node:http server answering every request with the response given as JSON in
// argv[2] ({ status, headers, body }): the peer each sandbox figure is compared with.
import { Buffer } from 'node:buffer'
import { createServer } from 'node:http'

const { status, headers, body } = JSON.parse(process.argv[2])
const bytes = Buffer.from(body, 'utf8')
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(status, { ...headers, 'content-length': String(bytes.length) })
    res.end(bytes)
  })
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`)
})
process.on('SIGINT', () => server.close(() => process.exit(0)))
server.keepAliveTimeout = 5000
