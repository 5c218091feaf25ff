import { mswFake } from './fakes.js'
import { describeClientAgainst } from './suite.js'

describeClientAgainst("MSW's setupServer", mswFake)
