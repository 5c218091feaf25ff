import { describeTarball } from '../../../scripts/package-suite.js'

describeTarball('core')
