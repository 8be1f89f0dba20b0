print("navsessiond: not built yet")
