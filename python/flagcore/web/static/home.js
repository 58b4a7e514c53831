// The home page says where the player's games and stats are kept: by the server when it has a
// store (GET /api/stats answers kept: true), else in this browser.
"use strict";
api("/api/stats").then(answer => answer.kept, () => false).then(kept => {
  $("kept").textContent = kept
    ? "Your games and stats are kept by the server for your player (a cookie of this browser)."
    : "Your stats are kept in this browser.";
});
