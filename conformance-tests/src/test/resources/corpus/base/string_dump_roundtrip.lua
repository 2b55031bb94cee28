-- string.dump produces a binary chunk that load accepts in mode 'b'
local f = load(string.dump(function(a) return a * 2 end), "dumped", "b")
print(f(21))
