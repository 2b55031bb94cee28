-- recursive generator built with coroutines
local function permgen(a, n)
  n = n or #a
  if n <= 1 then coroutine.yield(a) else
    for i = 1, n do
      a[n], a[i] = a[i], a[n]
      permgen(a, n - 1)
      a[n], a[i] = a[i], a[n]
    end
  end
end
for p in coroutine.wrap(function() permgen({1, 2, 3}) end) do print(table.concat(p, " ")) end
