// Unit tests of web/src/screen-clear.ts against a context that records
// what reaches it.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("screen-clear.ts");
});

// fakeGL has WebGL2's constants for the calls the rewrite watches and logs
// every call that reaches it.
function fakeGL() {
  const log = [];
  const gl = { FRAMEBUFFER: 0x8d40, DRAW_FRAMEBUFFER: 0x8ca9, READ_FRAMEBUFFER: 0x8ca8, BLEND: 0x0be2, ONE: 1, ZERO: 0, SRC_ALPHA: 0x0302, ONE_MINUS_SRC_ALPHA: 0x0303, FUNC_ADD: 0x8006, MAX: 0x8008, COLOR_BUFFER_BIT: 0x4000, log };
  for (const m of ["bindFramebuffer", "blendFunc", "blendFuncSeparate", "blendEquation", "blendEquationSeparate", "enable", "disable", "drawElements", "clear", "clearColor"]) {
    gl[m] = function (...a) { assert.equal(this, gl, `${m} called on its context`); log.push([m, ...a]); };
  }
  return gl;
}

const copy = (gl) => gl.blendFuncSeparate(gl.ONE, gl.ZERO, gl.ONE, gl.ZERO);
const over = (gl) => gl.blendFuncSeparate(gl.ONE, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
const draw = (gl) => gl.drawElements(4, 6, 0x1403, 0);

describe("replaceScreenFills", () => {
  const cases = [
    { name: "a copy-blend draw into the canvas's framebuffer becomes a clear", steps: (gl) => { copy(gl); draw(gl); }, cleared: true },
    { name: "a source-over draw into the canvas's framebuffer is drawn", steps: (gl) => { over(gl); draw(gl); }, cleared: false },
    { name: "a copy-blend draw into an image's framebuffer is drawn", steps: (gl) => { gl.bindFramebuffer(gl.FRAMEBUFFER, {}); copy(gl); draw(gl); }, cleared: false },
    { name: "binding the canvas's framebuffer again counts", steps: (gl) => { gl.bindFramebuffer(gl.FRAMEBUFFER, {}); gl.bindFramebuffer(gl.FRAMEBUFFER, null); copy(gl); draw(gl); }, cleared: true },
    { name: "the canvas's framebuffer bound as undefined (as ebiten does) counts", steps: (gl) => { gl.bindFramebuffer(gl.FRAMEBUFFER, {}); gl.bindFramebuffer(gl.FRAMEBUFFER, undefined); copy(gl); draw(gl); }, cleared: true },
    { name: "binding an image only to read from leaves the canvas's bound", steps: (gl) => { gl.bindFramebuffer(gl.READ_FRAMEBUFFER, {}); copy(gl); draw(gl); }, cleared: true },
    { name: "the copy factors set with blendFunc count", steps: (gl) => { gl.blendFunc(gl.ONE, gl.ZERO); draw(gl); }, cleared: true },
    { name: "a copy of colour only is drawn", steps: (gl) => { gl.blendFuncSeparate(gl.ONE, gl.ZERO, gl.ONE, gl.ONE_MINUS_SRC_ALPHA); draw(gl); }, cleared: false },
    { name: "another blend equation is drawn", steps: (gl) => { copy(gl); gl.blendEquationSeparate(gl.MAX, gl.FUNC_ADD); draw(gl); }, cleared: false },
    { name: "without blending the draw is drawn", steps: (gl) => { copy(gl); gl.disable(gl.BLEND); draw(gl); }, cleared: false },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const gl = fakeGL();
      const stats = M.replaceScreenFills(gl);
      gl.enable(gl.BLEND); // as ebiten does when it starts
      gl.log.length = 0;
      c.steps(gl);
      const last = gl.log[gl.log.length - 1];
      if (c.cleared) {
        assert.deepEqual(last, ["clear", gl.COLOR_BUFFER_BIT]);
        assert.equal(gl.log.filter((l) => l[0] === "drawElements").length, 0);
        assert.equal(stats.replaced, 1);
      } else {
        assert.deepEqual(last, ["drawElements", 4, 6, 0x1403, 0]);
        assert.equal(stats.replaced, 0);
      }
    });
  }

  test("the clear colour is transparent black", () => {
    const gl = fakeGL();
    M.replaceScreenFills(gl);
    assert.deepEqual(gl.log.filter((l) => l[0] === "clearColor"), [["clearColor", 0, 0, 0, 0]]);
  });
});
