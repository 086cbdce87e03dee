// speedscope_check.js: validate speedscope exports against the JSON
// schema the speedscope npm package ships, with ajv.
//
// Usage: NODE_PATH=DIR/node_modules node speedscope_check.js SCHEMA FILE...
// Prints one line per file; exits 1 when a file does not validate (its
// first errors printed), 2 on usage.
'use strict';
const fs = require('fs');
const Ajv = require('ajv');

const args = process.argv.slice(2);
if (args.length < 2) {
	console.log('usage: speedscope_check.js SCHEMA FILE...');
	process.exit(2);
}
const schema = JSON.parse(fs.readFileSync(args[0], 'utf8'));
const ajv = new Ajv({strict: false, allErrors: true});
const validate = ajv.compile(schema);
let bad = 0;
for (const f of args.slice(1)) {
	const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
	if (validate(doc)) {
		const n = doc.profiles.reduce((a, p) => a + p.events.length, 0);
		console.log(`valid ${f}: ${doc.profiles.length} profiles, ${n} events`);
	} else {
		bad++;
		console.log(`INVALID ${f}: ` +
			JSON.stringify(validate.errors.slice(0, 5)));
	}
}
process.exit(bad ? 1 : 0);
