import { sandboxFake } from './fakes.js'
import { describeClientAgainst } from './suite.js'

describeClientAgainst('the sandbox over HTTP', sandboxFake)
