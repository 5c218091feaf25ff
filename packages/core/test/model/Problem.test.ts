import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validate, type FieldError } from '../../src/model/FieldError.js'
import {
  ProblemDetails,
  ServerProblem,
  ValidationProblem,
  fieldErrorsOf,
  serverProblem,
  validationProblem,
} from '../../src/model/Problem.js'

const paths = (r: E.Either<ReadonlyArray<FieldError>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((e) => e.path) : []

const sample400 = {
  type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
  title: 'One or more validation errors occurred.',
  status: 400,
  errors: { amount: ['The field amount must be greater than 0.'] },
  traceId: '00-abc-01',
}

describe('ValidationProblem', () => {
  it('decodes the 400 sample shape and tolerates extra fields', () => {
    expect(validate(ValidationProblem)(sample400)).toEqual(E.right(sample400))
  })

  it('names the bad field: status other than 400, errors not a map of string arrays', () => {
    expect(paths(validate(ValidationProblem)({ ...sample400, status: 500 }))).toEqual(['status'])
    expect(paths(validate(ValidationProblem)({ ...sample400, errors: { amount: 'x' } }))).toEqual([
      'errors.amount',
    ])
    expect(paths(validate(ValidationProblem)({ ...sample400, errors: { amount: [1] } }))).toEqual([
      'errors.amount[0]',
    ])
    const { errors: _errors, ...noErrors } = sample400
    expect(paths(validate(ValidationProblem)(noErrors))).toEqual(['errors'])
    const { title: _title, ...noTitle } = sample400
    expect(paths(validate(ValidationProblem)(noTitle))).toEqual(['title'])
    const { type: _type, ...noType } = sample400
    expect(paths(validate(ValidationProblem)(noType))).toEqual(['type'])
  })

  it('is built from field errors with the RFC 7231 6.5.1 type, the root named $', () => {
    const problem = validationProblem([
      { path: 'amount', message: 'must be greater than 0' },
      { path: 'lineItems[0].sku', message: 'is required' },
      { path: 'amount', message: 'must equal the line-item total (3)' },
      { path: '', message: 'must be an object' },
    ])
    expect(problem).toEqual({
      type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: {
        amount: ['must be greater than 0', 'must equal the line-item total (3)'],
        'lineItems[0].sku': ['is required'],
        $: ['must be an object'],
      },
    })
    expect(validate(ValidationProblem)(JSON.parse(JSON.stringify(problem)))).toEqual(
      E.right(problem),
    )
  })

  const fieldError = fc.record({
    path: fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z]{1,8}(\[\d\])?(\.[a-z]{1,8})?$/)),
    message: fc.string({ minLength: 1 }),
  })

  test.prop([fc.array(fieldError, { maxLength: 10 })])(
    'field errors survive the 400 body: same messages per field, through JSON',
    (errors) => {
      const body = JSON.parse(JSON.stringify(validationProblem(errors))) as unknown
      const decoded = validate(ValidationProblem)(body)
      expect(E.isRight(decoded)).toBe(true)
      if (E.isLeft(decoded)) return
      const byPath = (es: ReadonlyArray<FieldError>): Record<string, ReadonlyArray<string>> => {
        const m: Record<string, Array<string>> = {}
        for (const e of es) (m[e.path] ??= []).push(e.message)
        return m
      }
      expect(byPath(fieldErrorsOf(decoded.right))).toEqual(byPath(errors))
    },
  )
})

describe('ServerProblem', () => {
  const sample500 = {
    type: 'https://tools.ietf.org/html/rfc7231#section-6.6.1',
    title: 'An error occurred while processing your request.',
    status: 500,
    traceId: '00-def-01',
  }

  it('decodes the 500 sample shape (no errors member) and tolerates extra fields', () => {
    expect(validate(ServerProblem)(sample500)).toEqual(E.right(sample500))
  })

  it('is built with the RFC 7231 6.6.1 type and no errors member', () => {
    const p = serverProblem()
    expect(p).toEqual({
      type: 'https://tools.ietf.org/html/rfc7231#section-6.6.1',
      title: 'An error occurred while processing your request.',
      status: 500,
    })
    expect('errors' in p).toBe(false)
    expect(validate(ServerProblem)(p)).toEqual(E.right(p))
  })

  it('names status when it is not 500, and title when missing', () => {
    expect(paths(validate(ServerProblem)({ ...sample500, status: 400 }))).toEqual(['status'])
    const { title: _title, ...noTitle } = sample500
    expect(paths(validate(ServerProblem)(noTitle))).toEqual(['title'])
  })
})

describe('ProblemDetails', () => {
  it('decodes a 401 or 404 body with or without type and detail', () => {
    const p401 = { title: 'Unauthorized', status: 401, detail: 'token expired', extra: true }
    expect(validate(ProblemDetails)(p401)).toEqual(E.right(p401))
    const p404 = { type: 'about:blank', title: 'Not Found', status: 404 }
    expect(validate(ProblemDetails)(p404)).toEqual(E.right(p404))
  })

  it('names status when it is not an integer, and detail when it is not a string', () => {
    expect(paths(validate(ProblemDetails)({ title: 'x', status: 4.5 }))).toEqual(['status'])
    expect(paths(validate(ProblemDetails)({ title: 'x', status: 404, detail: 1 }))).toEqual([
      'detail',
    ])
  })
})
