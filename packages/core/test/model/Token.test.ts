import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/model/FieldError.js'
import { AccessToken, TokenRequest, authorizationHeader } from '../../src/model/Token.js'

describe('Token', () => {
  it('decodes the spec sample access token and tolerates extra fields', () => {
    const r = validate(AccessToken)({
      accessToken: 'abc',
      tokenType: 'Bearer',
      expiresIn: 3600,
      scope: 'x',
    })
    expect(E.isRight(r)).toBe(true)
  })

  it('names each missing or bad field of a token request, and strips unknown ones', () => {
    expect(validate(TokenRequest)({ clientId: '' })).toEqual(
      E.left([
        // empty or missing: both are required
        { path: 'clientId', message: 'is required', code: 'required' },
        { path: 'clientSecret', message: 'is required', code: 'required' },
      ]),
    )
    expect(validate(TokenRequest)({ clientId: 'a', clientSecret: 'b', extra: 1 })).toEqual(
      E.right({ clientId: 'a', clientSecret: 'b' }),
    )
  })

  it('refuses a non-positive lifetime', () => {
    expect(validate(AccessToken)({ accessToken: 'a', tokenType: 'Bearer', expiresIn: 0 })).toEqual(
      E.left([{ path: 'expiresIn', message: 'must be a positive integer', code: 'positiveInt' }]),
    )
  })

  it('builds the bearer header', () => {
    expect(authorizationHeader('t0k')).toBe('Bearer t0k')
  })
})
