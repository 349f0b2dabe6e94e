import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { packageInfo } from '../src/version.ts'

t.test("the name and version are the package.json's", async (t) => {
  const json = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8'))
  t.same(packageInfo(), { name: json.name, version: json.version })
})
