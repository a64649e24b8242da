// Unit tests of playback's frame (web/src/player.ts) against a fake stage
// bridge that records what the player asks of it.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let P;
before(async () => {
  P = await loadTS("player.ts");
});

// paused is a player whose run is done and paused at its first of three
// events, with a fake bridge that logs its calls.
function paused(hooks = {}) {
  const calls = [];
  const player = new P.Player(hooks);
  player.api = {
    seek: () => JSON.stringify({ gen: 1 }),
    prefetch: (seq) => {
      calls.push(`prefetch ${seq}`);
      return JSON.stringify({ ok: true, done: false });
    },
    simulate: () => { calls.push("simulate"); return JSON.stringify({ ok: true, done: true, events: 3 }); },
    trace: () => JSON.stringify({ ok: true, events: [] }),
  };
  player.start({ playing: false, followEnd: false, gen: 1 });
  player.tl.events = [0, 1, 2].map((seq) => ({ seq, t: seq, kind: "Queued", reason: "" }));
  player.tl.cursor = 0;
  player.simDone = player.tl.done = true;
  return { player, calls };
}

test("a frame with nothing to show builds the next event's scene ahead", () => {
  const { player, calls } = paused();
  player.frame(16);
  assert.deepEqual(calls, ["prefetch 1"]);
});

test("no scene is built ahead while the run is replaced or waits to be", () => {
  const cases = {
    "a load replaces the run (paused)": (p) => { p.paused = true; },
    "a new run's t=0 view waits for its frame (hold)": (p) => { p.hold = true; },
  };
  for (const [name, set] of Object.entries(cases)) {
    const { player, calls } = paused();
    set(player);
    player.frame(16);
    assert.deepEqual(calls, [], name);
  }
  let pending = true;
  const { player, calls } = paused({ busy: () => pending });
  player.frame(16);
  assert.deepEqual(calls, [], "an edit waits to load (busy)");
  pending = false;
  player.frame(32);
  assert.deepEqual(calls, ["prefetch 1"], "once the edit has loaded");
});

test("a growing run simulates a slice a frame, but not while an edit waits to replace it", () => {
  let pending = false;
  const { player, calls } = paused({ busy: () => pending });
  player.simDone = player.tl.done = false;
  player.api.simulate = () => { calls.push("simulate"); return JSON.stringify({ ok: true, done: false, events: 3 }); };
  player.frame(16);
  assert.deepEqual(calls, ["simulate"]);
  pending = true;
  player.frame(32);
  player.paused = true;
  pending = false;
  player.frame(48);
  assert.deepEqual(calls, ["simulate"], "an edit waiting, then its load under way");
  player.paused = false;
  player.frame(64);
  assert.deepEqual(calls, ["simulate", "simulate"]);
});
