import t from 'tap'
import { fileLockContract } from '../helpers/contracts/file-lock.ts'
import { createMemoryFileLock, type HeldLocks } from '../helpers/memory-file-lock.ts'

await fileLockContract(t, 'the in-memory fake keeps the FileLock contract', (_t, waitMs) => {
  const held: HeldLocks = new Map()
  return {
    processes: [createMemoryFileLock({ held, waitMs }), createMemoryFileLock({ held, waitMs })],
    file: (name) => `/specs/${name}`,
  }
})
