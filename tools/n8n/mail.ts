/**
 * The shop's mail, captured: MailDev (the `maildev` package, a root devDependency) on
 * 127.0.0.1, an SMTP server that keeps every message and a web page to read them, with the
 * REST API (`/api/email`) the tests read them back through. Nothing is relayed anywhere.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startReadyServer } from '@paykit/tools/n8n/readyServer'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A captured message, as the templates' tests read it. */
export interface MailMessage {
  readonly to: string
  readonly from: string
  readonly subject: string
  readonly text: string
  readonly html: string
}

/** The running MailDev: its page, its SMTP port, the messages it holds. */
export interface Mail {
  /** The web page that lists the captured mail. */
  readonly url: string
  readonly smtpPort: number
  /** Every captured message, oldest first. */
  readonly messages: () => Promise<ReadonlyArray<MailMessage>>
  /** Forgets every captured message. */
  readonly clear: () => Promise<void>
  readonly stop: () => Promise<void>
}

interface MailDevAddress {
  readonly address: string
  readonly name?: string
}

interface MailDevEmail {
  readonly to?: ReadonlyArray<MailDevAddress>
  readonly from?: ReadonlyArray<MailDevAddress>
  readonly subject?: string
  readonly text?: string
  readonly html?: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** MailDev's command, from the root's `maildev` package. */
const maildevBin = (): string =>
  join(dirname(fileURLToPath(import.meta.resolve('maildev'))), 'bin/maildev.js')

const addresses = (list: ReadonlyArray<MailDevAddress> | undefined): string =>
  (list ?? []).map((a) => a.address).join(', ')

/** Starts MailDev: SMTP on `smtpPort`, its page and API on `webPort`, both on 127.0.0.1. */
export const startMail = async (options: {
  readonly smtpPort: number
  readonly webPort: number
  readonly log?: (line: string) => void
}): Promise<Mail> => {
  const { ready, stop } = startReadyServer({
    name: 'maildev',
    command: process.execPath,
    args: [
      maildevBin(),
      '--smtp',
      String(options.smtpPort),
      '--ip',
      '127.0.0.1',
      '--web',
      String(options.webPort),
      '--web-ip',
      '127.0.0.1',
    ],
    readyLine: 'Press Ctrl+C to stop',
    stopSignal: 'SIGTERM',
    log: options.log,
  })
  await ready
  const url = `http://127.0.0.1:${String(options.webPort)}/`
  const api = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${url}api${path}`, init)
    if (!res.ok) throw new Error(`MailDev ${path} answered ${res.status}: ${await res.text()}`)
    return res
  }
  return {
    url,
    smtpPort: options.smtpPort,
    messages: async () => {
      const emails = (await (await api('/email')).json()) as ReadonlyArray<MailDevEmail>
      return emails.map((e) => ({
        to: addresses(e.to),
        from: addresses(e.from),
        subject: e.subject ?? '',
        text: e.text ?? '',
        html: e.html ?? '',
      }))
    },
    clear: async () => {
      await api('/email/all', { method: 'DELETE' })
    },
    stop,
  }
}
