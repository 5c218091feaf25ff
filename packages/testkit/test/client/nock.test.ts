// @paykit-test own-worker: nock's interceptors
import { nockFake } from './fakes.js'
import { describeClientAgainst } from './suite.js'

describeClientAgainst('the nock mock', nockFake)
