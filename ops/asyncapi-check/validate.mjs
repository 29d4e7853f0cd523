// Validates AsyncAPI documents with @asyncapi/parser (the parser behind the AsyncAPI CLI's
// `asyncapi validate`): structure, references (relative files included) and the spec's rules.
// Usage: node validate.mjs <document>...   Exit 0 when every document is valid, 1 when any has an
// error (each printed as "<file>: error <code> at <path>: <message>"), 2 on bad usage.
// Warnings are printed but do not fail; every document is checked, the first error stops nothing.
import { Parser, fromFile, DiagnosticSeverity } from '@asyncapi/parser';
import path from 'node:path';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs <asyncapi document>...');
  process.exit(2);
}

const parser = new Parser();
const names = { [DiagnosticSeverity.Error]: 'error', [DiagnosticSeverity.Warning]: 'warning' };
let failed = false;
for (const file of files) {
  const source = path.resolve(file);
  let diagnostics;
  let document;
  try {
    ({ document, diagnostics } = await fromFile(parser, source).parse());
  } catch (e) {
    console.log(`${file}: error cannot read or parse: ${e.message}`);
    failed = true;
    continue;
  }
  let errors = 0;
  for (const d of diagnostics) {
    const severity = names[d.severity] ?? 'info';
    if (d.severity === DiagnosticSeverity.Error) {
      errors++;
    } else if (d.severity !== DiagnosticSeverity.Warning) {
      continue;
    }
    console.log(`${file}: ${severity} ${d.code} at /${d.path.join('/')}: ${d.message}`);
  }
  if (errors > 0 || document === undefined) {
    failed = true;
    console.log(`${file}: INVALID (${errors} errors)`);
  } else {
    console.log(`${file}: valid AsyncAPI ${document.version()}, ${document.channels().length} channels, `
        + `${document.operations().length} operations, ${document.messages().length} messages`);
  }
}
process.exit(failed ? 1 : 0);
