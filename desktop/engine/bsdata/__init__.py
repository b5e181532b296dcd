"""BattleScribe game data and rosters: a pure engine (no Qt, no database, no files).

`reader` turns the bytes of a game system or catalogue into one immutable tree (`model`);
`gamedata` resolves its ids and links within one game system; `roster` and `actions` build
rosters as values; `evaluate` works out costs, modifiers and validation errors, `state` the
snapshot a player sees; `rosterfile` reads and writes BattleScribe's `.ros`.
"""
