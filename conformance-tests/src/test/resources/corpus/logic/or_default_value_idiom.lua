-- 'x = x or default' only replaces nil and false
local function opt(v) return v or "default" end
print(opt(nil), opt(false), opt(0), opt(""))
