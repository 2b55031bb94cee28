-- __mode is accepted (collection is not tested)
local weak = setmetatable({}, {__mode = "k"})
local key = {}
weak[key] = "value"
print(weak[key])
local wv = setmetatable({}, {__mode = "kv"})
wv[1] = "x"
print(wv[1], getmetatable(wv).__mode)
