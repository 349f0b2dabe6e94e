// Loaded with `node --import`: records every module file the process loads and, at exit, writes
// their URLs, one a line, to the file MODULE_RECORD names.
import { writeFileSync } from 'node:fs'
import { registerHooks } from 'node:module'

const loaded = new Set<string>()
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url)
    return nextLoad(url, context)
  },
})
process.on('exit', () => writeFileSync(process.env.MODULE_RECORD!, [...loaded].join('\n')))
