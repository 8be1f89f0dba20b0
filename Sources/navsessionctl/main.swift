print("navsessionctl: not built yet")
