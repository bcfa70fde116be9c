// Card text as the server reads it (scorekeeper/core/cards.py): the one reader every
// script uses — the picker, the hand preview, the offline queue. It only mirrors the
// spellings the server accepts, checked in Chromium against the same table as the
// Python parser (tests/support/card_spellings.json); the server stays the judge.
"use strict";

const CardText = (() => {
  const SUITS = { c: "C", d: "D", h: "H", s: "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "♧": "C", "♢": "D", "♡": "H", "♤": "S" };
  const RANKS = { a: "A", t: "10", j: "J", q: "Q", k: "K" };
  for (let n = 2; n <= 10; n += 1) RANKS[String(n)] = String(n);
  const JOKERS = new Set(["jk", "joker", "jkr", "🃏", "*"]);
  const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

  // One token to {rank, suit, text} (text is canonical, e.g. "10H"; a joker has no
  // suit), or null when it is not a card. Rank then suit, or suit then rank.
  const parse = (token) => {
    const low = token.trim().toLowerCase();
    if (JOKERS.has(low)) return { rank: "JK", suit: null, text: "JK" };
    const chars = Array.from(low);
    if (chars.length < 2) return null;
    const tries = [[chars.slice(0, -1).join(""), chars[chars.length - 1]], [chars.slice(1).join(""), chars[0]]];
    for (const [r, s] of tries) {
      if (RANKS[r] && SUITS[s]) return { rank: RANKS[r], suit: SUITS[s], text: RANKS[r] + SUITS[s] };
    }
    return null;
  };
  // A hand's text split as the server splits it: spaces, commas, semicolons.
  const tokens = (text) => text.split(/[\s,;]+/).filter(Boolean);
  // How a card is shown: 10♥, Q♠, Joker.
  const pretty = (card) => (card.suit ? card.rank + SYMBOL[card.suit] : "Joker");
  // A token shown as its card, or as typed when it is not one.
  const show = (token) => {
    const card = parse(token);
    return card ? pretty(card) : token;
  };
  return { parse, tokens, pretty, show };
})();
