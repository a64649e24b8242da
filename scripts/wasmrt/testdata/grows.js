// Runs a js/wasm Go program under Node as Go's wasm_exec_node.js does, and
// counts the times the runtime grew linear memory (each grow is followed by
// its call to runtime.resetMemoryDataView); prints "grows N MB M" at exit.
//
//	node grows.js GOROOT/lib/wasm/wasm_exec.js program.wasm
"use strict";

globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("performance");
globalThis.crypto ??= require("crypto");

require(process.argv[2]);

const go = new Go();
go.argv = process.argv.slice(3);
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
let grows = 0;
const reset = go.importObject.gojs["runtime.resetMemoryDataView"];
go.importObject.gojs["runtime.resetMemoryDataView"] = (sp) => {
	grows++;
	reset(sp);
};
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then((result) => {
	process.on("exit", (code) => {
		if (code === 0 && !go.exited) {
			go._pendingEvent = { id: 0 };
			go._resume();
		}
		const mb = result.instance.exports.mem.buffer.byteLength / (1 << 20);
		console.log(`grows ${grows} MB ${mb.toFixed(1)}`);
	});
	return go.run(result.instance);
}).catch((err) => {
	console.error(err);
	process.exit(1);
});
