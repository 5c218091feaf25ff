import { describeTarball } from '@paykit/tools/package-suite'

describeTarball('core')
