for l in io.lines("data/missing.txt") do print(l) end
