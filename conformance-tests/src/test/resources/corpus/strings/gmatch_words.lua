-- gmatch iterates over all matches
for w in string.gmatch("one two  three", "%a+") do print(w) end
for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do print(k, v) end
