import { startSandbox } from '../../src/sandbox/startSandbox.js'
import { describeClientAgainst } from './suite.js'

describeClientAgainst('the sandbox over HTTP', async () => {
  const sandbox = await startSandbox({ expirySweepMs: 0 })
  return { ...sandbox, baseUrl: sandbox.url }
})
