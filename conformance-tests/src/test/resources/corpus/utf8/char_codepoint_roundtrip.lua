-- utf8.char and utf8.codepoint are inverses
local cps = {0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF}
for _, cp in ipairs(cps) do
  local s = utf8.char(cp)
  print(cp, #s, utf8.codepoint(s) == cp)
end
