// @paykit-test own-worker: MSW's patched fetch (setupServer)
import { mswFake } from './fakes.js'
import { describeClientAgainst } from './suite.js'

describeClientAgainst("MSW's setupServer", mswFake)
