import nock from 'nock'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { describeClientAgainst } from './suite.js'

describeClientAgainst('the nock mock', async () => {
  const mock = mockPaymentService({ baseUrl: 'https://api.paykit.test/v1' })
  return {
    ...mock,
    close: async () => {
      mock.restore()
      nock.enableNetConnect()
    },
  }
})
