// The replay's board drawn in the browser from a view the server computed (GET .../positions): the same panel as
// templates/_panel.html with `readonly` (a past position: no "Your turn", no running clock) and the same pieces as
// templates/macros.html (card, pile, players, scores). Each game's part (its partial's "turn" and "table" parts) is
// drawn by the script in the same partial's "board" part, registered in ArbiterBoard.games, so a game's look stays in
// its one file; a game without one gets the generic part (games/_generic.html). The browser folds no rule: it only
// draws the view it is given.
// Keep the two alike: tests/e2e/test_browser_replay_viewer.py compares this drawing with the server's, every game.
(function () {
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const SUIT = { C: ["♣", "black", "clubs"], D: ["♦", "red", "diamonds"], H: ["♥", "red", "hearts"], S: ["♠", "black", "spades"] };
  const RANK = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king" };

  function parts(c) {
    c = String(c);
    if (c === "JK") return { text: c, rank: "Joker", symbol: "★", colour: "joker", label: "joker" };
    if (c.length !== 2 || !SUIT[c[1]]) return { text: c, rank: c, symbol: "", colour: "black", label: c };
    const [symbol, colour, name] = SUIT[c[1]];
    return { text: c, rank: c[0] === "T" ? "10" : c[0], symbol, colour, label: `${RANK[c[0]] || c[0]} of ${name}` };
  }
  function card(c) {
    const p = parts(c);
    return `<span class="card ${p.colour}" role="img" aria-label="${esc(p.label)}" title="${esc(p.label)}" data-card="${esc(p.text)}">` +
      `<span class="rank" aria-hidden="true">${esc(p.rank)}</span>${p.symbol ? `<span class="suit" aria-hidden="true">${p.symbol}&#xFE0E;</span>` : ""}</span>`;
  }
  const cards = (list) => (list && list.length ? list.map(card).join("") : '<span class="none">none</span>');
  const cardBack = (label = "face-down card") => `<span class="card-back" role="img" aria-label="${esc(label)}" title="${esc(label)}"></span>`;
  function pile(count, { top = null, label = "pile", id = null } = {}) {
    const n = Number(count) || 0;
    const depth = n <= 1 ? 0 : n <= 4 ? 1 : n <= 12 ? 2 : n <= 26 ? 3 : 4;
    const words = `${esc(label)}: ${n} card${n === 1 ? "" : "s"}`;
    const face = n === 0 ? '<span class="pile-slot" aria-hidden="true"></span>' : top ? card(top) : '<span class="card-back" aria-hidden="true"></span>';
    return `<span class="pile-stack depth-${depth}${n === 0 ? " empty" : ""}" role="group" aria-label="${words}" title="${words}" data-count="${n}">` +
      `${face}<span class="pile-count"${id ? ` id="${id}"` : ""}>${n}</span></span>`;
  }
  const seatName = (view, seat) => (seat == null ? "—" : esc(view.players[seat].name));
  const words = (s) => esc(String(s).replace(/_/g, " "));
  let rulesUrl = "";
  const clause = (code) => `<a class="clause" href="${esc(rulesUrl)}#${esc(code)}" title="rule ${esc(code)}">${esc(code)}</a>`;
  const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const suitName = (letter) => (SUIT[letter] ? `${SUIT[letter][0]} ${SUIT[letter][2]}` : esc(letter));

  // templates/macros.html `players`: name, team, whose turn, winner; `each(s)` adds a seat's own details
  function players(view, t, each, title = "Players") {
    const entries = (t && t.seats) || [];
    const winners = view.winner ? view.winner.seats : [];
    const rows = view.players.map((p) => {
      const s = entries.find((e) => e.seat === p.seat) || { seat: p.seat };
      const cls = `seat${t && t.to_act === p.seat && view.status !== "finished" ? " acting" : ""}${s.eliminated ? " out" : ""}${winners.includes(p.seat) ? " won" : ""}`;
      return `<li class="${cls}" data-seat="${p.seat}"><span class="name">${esc(p.name)}${p.team ? ` <small>(${esc(p.team)})</small>` : ""}</span>` +
        `${winners.includes(p.seat) ? '<span class="tag win">winner</span>' : ""}${each ? each(s) : ""}</li>`;
    });
    return `<section class="seats panel"><h2>${esc(title)}</h2><ul class="seat-list">${rows.join("")}</ul></section>`;
  }
  function scoreOf(scores, seat) {
    if (Array.isArray(scores)) return seat < scores.length ? scores[seat] : "";
    if (scores && typeof scores === "object") return seat in scores ? scores[seat] : (scores[String(seat)] ?? "");
    return "";
  }
  function scores(view, t) {
    if (!t || t.scores == null || !(Array.isArray(t.scores) ? t.scores.length : Object.keys(t.scores).length)) return "";
    const shown = view.players.map((p) => [p, scoreOf(t.scores, p.seat)]).filter(([, s]) => s !== "" && s != null);
    return `<p class="scores" id="scores">Scores: ${shown.map(([p, s]) => `<span class="score" data-seat="${p.seat}">${esc(p.name)} <strong>${esc(s)}</strong></span>`).join(" · ")}</p>`;
  }
  const mmss = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
  function clocks(view) {
    const clock = view.clock, tc = clock.time_control;
    const gameMs = tc && tc.game_seconds ? tc.game_seconds * 1000 : null;
    let head = "Clocks";
    if (tc && (tc.game_seconds || tc.move_seconds)) {
      const bits = [tc.game_seconds ? `${mmss(tc.game_seconds * 1000)} a game` : "", tc.move_seconds ? `${mmss(tc.move_seconds * 1000)} a move` : ""].filter(Boolean);
      head += ` <small>(${bits.join(", ")})</small>`;
    }
    const wait = clock.waiting ? `<p class="clock-wait" id="clocks-waiting">The clocks wait for the first move: nobody's time runs until ${(clock.waiting_for || []).map((s) => seatName(view, s)).join(" or ") || "someone"} has moved.</p>` : "";
    const rows = clock.seats.map((c) => `<li class="clock${c.flags && c.flags.length ? " flagged" : ""}" data-seat="${c.seat}" data-used="${c.used_ms}">` +
      `<strong>${seatName(view, c.seat)}</strong> <span class="used" title="thinking time">${mmss(c.used_ms)}</span>` +
      `${gameMs != null ? ` <span class="left">${mmss(c.remaining_ms)} left</span>` : ""}` +
      `${c.flags && c.flags.length ? ` <span class="flag">out of time (${c.flags.map(esc).join(", ")})</span>` : ""}</li>`);
    return `<section class="clocks panel" id="clocks" data-frozen><h2>${head}</h2>${wait}<ul class="clock-list${clock.waiting ? " waiting" : ""}">${rows.join("")}</ul></section>`;
  }
  function optionText(v) { return Array.isArray(v) ? v.map(esc).join(", ") : esc(v); }

  // templates/_panel.html, readonly: the status line, the result or who is to act, the scores; the game's table; the
  // clocks; the talk up to this version; a seat's hand then
  function panel(view, ctx) {
    const t = view.table, game = ArbiterBoard.games[view.game] || ArbiterBoard.generic;
    const me = view.viewer.role === "seat" ? view.viewer.seat : null;
    let who;
    if (me != null) { const p = view.players[me]; who = `You are <strong>${esc(p.name)}</strong> (seat ${me}${p.team ? `, team ${esc(p.team)}` : ""})`; }
    else if (view.viewer.role === "referee") who = "<strong>Referee</strong> view: every hand";
    else who = "<strong>Spectator</strong> view: no hidden card";
    const opts = Object.entries(view.options || {}).filter(([, v]) => v != null && v !== "" && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => ` · ${words(k)} ${optionText(v)}`).join("");
    const open = (view.disputes || []).filter((d) => d.ruling == null).length;
    let out = `<section class="status panel" aria-live="polite"><p class="who">${who} · ${esc(view.title)}${opts}${view.stacked ? ' · <em class="stacked">stacked deck</em>' : ""} · version <span class="version">${view.version}</span>` +
      `${open ? ` · <a href="${esc(ctx.disputesUrl)}" class="open-disputes">${open} open dispute${open === 1 ? "" : "s"}</a>` : ""}</p>`;
    if (view.status === "finished") {
      let r;
      if (!view.winner) r = view.result === "draw" ? "drawn" : words(view.result || "ended");
      else {
        r = view.winner.team ? `team ${esc(view.winner.team)} wins` : `${view.winner.seats.map((s) => seatName(view, s)).join(" and ")} ${view.winner.seats.length > 1 ? "win" : "wins"}`;
        if (view.result && view.result !== "win") r += ` (${words(view.result)})`;
      }
      out += `<p class="turn over" id="result">Game over: ${r}</p>`;
    } else if (t.to_act != null) {
      out += `<p class="turn past" id="turn">${seatName(view, t.to_act)} to act: <span class="phase">${words(t.phase)}</span>${game.turn ? game.turn(view, t) : ""}</p>`;
    } else if (view.clock && (view.clock.running.length || (view.clock.waiting_for || []).length)) {
      const acting = view.clock.running.length ? view.clock.running : view.clock.waiting_for;
      out += `<p class="turn past" id="turn">${acting.map((s) => seatName(view, s)).join(" and ")} to act: <span class="phase">${t.phase != null ? words(t.phase) : "playing"}</span>${game.turn ? game.turn(view, t) : ""}</p>`;
    }
    out += `${scores(view, t)}</section>`;
    out += game.table(view, t);
    if (view.clock) out += clocks(view);
    if (ctx.talk && ctx.talk.length) out += `<section class="talk panel"><h2>Table talk</h2><ul class="talk-list">${ctx.talk.join("")}</ul></section>`;
    if (me != null) out += `<section class="mine panel"><h2>Your hand then</h2><div class="hand">${cards(t.hand)}</div></section>`;
    return out;
  }

  const generic = {
    table(view, t) {
      return players(view, t, (s) => (s.hand ? `<span class="count">${plural(s.hand.length, "card")}</span> <span class="hand">${cards(s.hand)}</span>`
        : s.hand_size != null ? pile(s.hand_size, { label: "cards in hand" }) : ""));
    },
  };

  window.ArbiterBoard = {
    games: {}, generic, esc, card, cards, cardBack, pile, seatName, words, clause, plural, suitName, players,
    render(view, ctx) { rulesUrl = ctx.rulesUrl || ""; return panel(view, ctx); },
  };
})();
