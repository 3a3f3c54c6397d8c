#!/usr/bin/env node
// A bot for the truco bot protocol (docs/bot-protocol.md), for Node, no npm packages.
// It accepts every raise, plays its first face-up card, and otherwise picks a legal move
// at random (seeded by the match). Try it:  truco bot check 'node examples/bots/first.js'
"use strict";
const readline = require("readline");

let seed = 1;
function random() { // a small linear congruential generator: the same match, the same moves
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

function say(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function choose(observation, legal) {
  const accept = legal.filter((m) => m.startsWith("accept"));
  if (accept.length) return accept[0];
  const plays = legal.filter((m) => m.startsWith("play") && !m.endsWith("covered"));
  if (plays.length && random() < 0.8) return plays[0];
  const others = legal.filter((m) => !m.startsWith("fold"));
  const pool = others.length ? others : legal;
  return pool[Math.floor(random() * pool.length)];
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    say({ type: "id", protocol: 1, name: "first.js", author: "truco examples", options: [] });
    say({ type: "ready" });
  } else if (message.type === "match") {
    seed = (message.seed % 2147483647) || 1;
    process.stderr.write(`match ${message.match} as seat ${message.seat}\n`);
  } else if (message.type === "decision") {
    say({ type: "move", id: message.id, move: choose(message.observation, message.legal) });
  } else if (message.type === "quit") {
    process.exit(0);
  }
});
