-- xpcall passes extra arguments to the function (5.2+)
print(xpcall(function(a, b) return a + b end, print, 3, 4))
