import { afterEach, describe, expect, it, vi } from 'vitest'
import { defaultRuntime, defaultSleep } from '../../src/edge/DefaultRuntime.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('defaultSleep', () => {
  it('resolves after ms', async () => {
    vi.useFakeTimers()
    let done = false
    const sleeping = defaultSleep(1000).then(() => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await sleeping
    expect(done).toBe(true)
  })

  it('resolves at once when its signal aborts, and leaves no timer behind', async () => {
    vi.useFakeTimers()
    const controller = new AbortController()
    const sleeping = defaultSleep(60_000, controller.signal)
    expect(vi.getTimerCount()).toBe(1)
    controller.abort()
    await sleeping
    expect(vi.getTimerCount()).toBe(0)
    await defaultSleep(60_000, controller.signal)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('defaultRuntime', () => {
  it('is a fetch transport, the wall clock and defaultSleep', () => {
    const runtime = defaultRuntime({ timeoutMs: 10 })
    expect(typeof runtime.transport).toBe('function')
    expect(Math.abs(runtime.now() - Date.now())).toBeLessThan(1000)
    expect(runtime.sleep).toBe(defaultSleep)
  })
})
