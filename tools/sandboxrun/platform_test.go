package sandboxrun

import goruntime "runtime"

var isWindows = goruntime.GOOS == "windows"
