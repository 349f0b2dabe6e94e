#!/usr/bin/env node
// The `judge` command of the installed package. Plain JavaScript that older Node versions parse
// too, so that they get this message instead of a failure inside the compiled code.
const version = process.versions.node
if (Number(version.split('.')[0]) < 24) {
  process.stderr.write(
    `judge needs Node 24 or newer (it uses node:sqlite); this is Node ${version} (${process.execPath}).\n` +
      'Install Node 24 from https://nodejs.org/ (or with nvm: nvm install 24), or pin it in your project\n' +
      'with npm install --save-dev node@24: npx judge and npm scripts then run with it.\n',
  )
  process.exit(2)
}
import('../dist/cli.js').catch((error) => {
  // A checkout that was never built has no dist/: say how to build it rather than where it failed.
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('judge: dist/cli.js is missing; run npm run build in the package first\n')
    process.exit(2)
  }
  throw error
})
