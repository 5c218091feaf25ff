import { validate } from '@paykit/core'
import { ProblemDetails, fieldErrorsOf, ValidationProblem } from '@paykit/core/codecs'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  problemDetails,
  serverProblemDetails,
  validationProblemDetails,
} from '../../src/arbitraries/Problem.js'

describe('problem details', () => {
  it('a 400 names at least one field, each with a message', () => {
    for (const json of fc.sample(validationProblemDetails(), 200)) {
      const problem = validate(ValidationProblem)(json)
      expect(problem._tag).toBe('Right')
      if (problem._tag === 'Right') expect(fieldErrorsOf(problem.right).length).toBeGreaterThan(0)
      expect(json.type).toBe('https://tools.ietf.org/html/rfc7231#section-6.5.1')
    }
  })

  it('a 500 has no errors member', () => {
    for (const json of fc.sample(serverProblemDetails(), 20)) {
      expect(json.status).toBe(500)
      expect(Object.keys(json).sort()).toEqual(['status', 'title', 'type'])
    }
  })

  it('any problem: 400, 500 and other error statuses, all decoding', () => {
    const statuses = new Set<number>()
    for (const json of fc.sample(problemDetails(), { numRuns: 300, seed: 21 })) {
      expect(validate(ProblemDetails)(json)._tag).toBe('Right')
      statuses.add(json.status)
    }
    expect(statuses).toContain(400)
    expect(statuses).toContain(500)
    expect(statuses).toContain(401)
  })
})
