// ebiten (v2.8, internal/ui/context.go) clears the canvas's own framebuffer
// every time it presents a frame, then draws the frame onto it; it clears by
// drawing a quad of transparent black over the whole canvas with the copy
// blend, not with gl.clear. A software rasteriser (SwiftShader, which
// headless Chromium and GPU-less machines use) shades every pixel of that
// quad: about a quarter of a presented frame's GPU time at 500 nodes
// (measured for docs/performance-web.md). Nothing else draws into the
// canvas's framebuffer with the copy blend (the frame is drawn over the
// cleared screen with source-over), so such a draw is turned into gl.clear,
// which needs no shading. Clearing respects the scissor box ebiten set to
// the quad's region, and ebiten never sets the clear colour, so it is the
// transparent black the quad drew.

// The context methods ebiten calls that the rewrite needs to watch.
type GL = Pick<WebGL2RenderingContext,
  "bindFramebuffer" | "blendFunc" | "blendFuncSeparate" | "blendEquation" | "blendEquationSeparate" |
  "enable" | "disable" | "drawElements" | "clear" | "clearColor" |
  "FRAMEBUFFER" | "DRAW_FRAMEBUFFER" | "BLEND" | "ONE" | "ZERO" | "FUNC_ADD" | "COLOR_BUFFER_BIT">;

export interface ScreenClears { replaced: number }

// replaceScreenFills installs the rewrite on one context (its own methods,
// which ebiten binds when it starts) and returns a counter of the draws
// replaced.
export function replaceScreenFills(gl: GL): ScreenClears {
  const stats: ScreenClears = { replaced: 0 };
  let onScreen = true; // the canvas's framebuffer is bound at first
  let blend = false;
  let copy = false; // blend factors (ONE, ZERO) for colour and alpha
  let add = true; // blend equation FUNC_ADD for both
  const own = gl as unknown as Record<string, (...a: unknown[]) => unknown>;
  const wrap = (name: keyof GL, before: (a: unknown[]) => boolean | void) => {
    const f = (gl[name] as unknown as (...a: unknown[]) => unknown).bind(gl);
    own[name] = (...a: unknown[]) => (before(a) === true ? undefined : f(...a));
  };
  wrap("bindFramebuffer", (a) => {
    // ebiten binds the canvas's framebuffer as undefined (Go's zero js.Value).
    if (a[0] === gl.FRAMEBUFFER || a[0] === gl.DRAW_FRAMEBUFFER) onScreen = a[1] === null || a[1] === undefined;
  });
  wrap("enable", (a) => { if (a[0] === gl.BLEND) blend = true; });
  wrap("disable", (a) => { if (a[0] === gl.BLEND) blend = false; });
  wrap("blendFunc", (a) => { copy = a[0] === gl.ONE && a[1] === gl.ZERO; });
  wrap("blendFuncSeparate", (a) => {
    copy = a[0] === gl.ONE && a[1] === gl.ZERO && a[2] === gl.ONE && a[3] === gl.ZERO;
  });
  wrap("blendEquation", (a) => { add = a[0] === gl.FUNC_ADD; });
  wrap("blendEquationSeparate", (a) => { add = a[0] === gl.FUNC_ADD && a[1] === gl.FUNC_ADD; });
  wrap("drawElements", () => {
    if (!(onScreen && blend && copy && add)) return false;
    gl.clear(gl.COLOR_BUFFER_BIT);
    stats.replaced++;
    return true;
  });
  gl.clearColor(0, 0, 0, 0); // the default; set in case a page changed it first
  return stats;
}
