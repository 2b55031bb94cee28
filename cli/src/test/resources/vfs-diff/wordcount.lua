-- word frequencies of a generated text, sorted, written out and read back with the 5.1-style formats
local text = assert(io.open("out/text.txt", "w"))
local words = {"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"}
local seed = 7
for i = 1, 3000 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  text:write(words[seed % #words + 1], i % 12 == 0 and "\n" or " ")
end
text:close()
local freq = {}
io.input("out/text.txt")
for line in io.lines() do
  for w in line:gmatch("%a+") do freq[w] = (freq[w] or 0) + 1 end
end
io.close(io.input())
local keys = {}
for k in pairs(freq) do keys[#keys + 1] = k end
table.sort(keys, function(a, b) if freq[a] ~= freq[b] then return freq[a] > freq[b] end return a < b end)
io.output("out/freq.txt")
for _, k in ipairs(keys) do io.write(k, "\t", freq[k], "\n") end
io.close()
io.output(io.stdout)
local f = io.open("out/freq.txt")
print(f:read("*l"))
print(f:read("*a"):len())
f:close()
local size = io.open("out/text.txt"):seek("end")
print("size", size)
local chunks, total = 0, 0
local h = io.open("out/text.txt", "rb")
while true do
  local block = h:read(1000)
  if not block then break end
  chunks = chunks + 1
  total = total + #block
end
h:close()
print(chunks, total)
