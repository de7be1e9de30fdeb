package bad

import "os"

var start = os.StartProcess
