-- utf8.codes yields byte positions and code points
for p, c in utf8.codes("a\u{E9}\u{20AC}\u{10348}") do print(p, c) end
