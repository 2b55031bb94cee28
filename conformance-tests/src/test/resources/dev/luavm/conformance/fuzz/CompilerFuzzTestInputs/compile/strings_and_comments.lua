local s = "\x41\65\u{10FFFF}\z
   \a\b\f\n\r\t\v\\\"\x27"
local l = [==[
long ]] ]=] string]==]
--[[ long
comment ]] --[=[ x ]=]
