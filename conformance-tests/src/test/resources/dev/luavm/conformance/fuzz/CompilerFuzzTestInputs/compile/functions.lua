if x then elseif y then else end
function a.b.c:d(e) self.e = e end
local function r() return r() end
