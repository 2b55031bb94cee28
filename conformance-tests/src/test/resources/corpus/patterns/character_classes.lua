-- character classes %a %d %l %u %s %w %x %p %c
local s = "aB3 _\t!fF"
for _, c in ipairs({"%a", "%d", "%l", "%u", "%s", "%w", "%x", "%p"}) do
  print(c, (s:gsub("[^" .. c .. "]", "")))
end
print(#("a\1\31\127b"):gsub("%C", ""))
