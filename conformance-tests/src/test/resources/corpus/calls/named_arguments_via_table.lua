-- a table argument emulates named parameters
local function window(opts) return opts.w * opts.h, opts.title or "untitled" end
print(window{w = 3, h = 4})
print(window{w = 1, h = 1, title = "t"})
