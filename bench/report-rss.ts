import { writeSync } from 'node:fs'

// Preloaded (node --import) into the process bench/run-memory.ts measures: at exit it writes the
// process's peak resident set size, as the kernel counted it, on standard error.
process.on('exit', () => {
  writeSync(2, `\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`)
})
