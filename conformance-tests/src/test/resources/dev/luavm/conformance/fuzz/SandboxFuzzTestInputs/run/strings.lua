print(("x"):rep(100, ","):gsub("x", function(c) return c:upper() end))
print(string.format("%5.2f %q %g %x %a", 3.14159, "a\0b\n", 1e300, -1, 0.5))
print(("hello world"):find("o w"), ("key=val"):match("(%w+)=(%w+)"), ("abc"):byte(1, -1))
for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do print(k, v) end
