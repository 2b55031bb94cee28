-- \u{XXX} inserts the UTF-8 encoding of a code point
print(("\u{41}"):byte(1, -1))
print(("\u{7FF}"):byte(1, -1))
print(("\u{20AC}"):byte(1, -1))
print(("\u{10FFFF}"):byte(1, -1))
print(#"\u{7FFFFFFF}")
