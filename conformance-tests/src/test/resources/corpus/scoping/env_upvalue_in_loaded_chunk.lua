-- load's env argument becomes the chunk's _ENV
local env = {v = 10}
local f = load("w = v * 2; return w", "chunk", "t", env)
print(f())
print(env.w, w)
