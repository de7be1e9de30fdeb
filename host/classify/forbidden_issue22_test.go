package classify

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// forbidden22 are the spellings issue 22 §1 found getting only approval-required, and
// their relatives (docs/safety/shell-classifier.md, "Forbidden rules"). Each must be
// forbidden, through Decide for both shell tools as the hooks of every host call it.
var forbidden22 = []struct{ cmd, what string }{
	// Windows paths the resolver missed
	{`Remove-Item -Recurse -Force Microsoft.PowerShell.Core\FileSystem::C:\Windows`, "module-qualified provider path"},
	{`Remove-Item -Recurse -Force "Microsoft.PowerShell.Core\FileSystem::C:\Windows\System32"`, "module-qualified provider path, quoted"},
	{`Remove-Item -Recurse -Force FileSystem::\\?\C:\Windows`, "provider path of a device path"},
	{`Remove-Item -Recurse -Force $env:HOMEDRIVE\Windows`, "$env:HOMEDRIVE"},
	{`rd /s /q %HOMEDRIVE%\Windows`, "%HOMEDRIVE%"},
	{`rm -rf "${env:HOMEDRIVE}/Windows/System32"`, "${env:HOMEDRIVE}"},
	{`del /f /q %__APPDIR__%*.dll`, "%__APPDIR__% is cmd's System32"},
	{`rd /s /q %__APPDIR__%`, "%__APPDIR__% alone"},
	{`cmd /c "del /f %__APPDIR__%drivers\etc\hosts"`, "%__APPDIR__% joined to a name"},
	{`Remove-Item -Recurse -Force $PSHOME`, "$PSHOME is under System32"},
	{`Remove-Item -Recurse -Force "$PSHOME\..\.."`, "$PSHOME climbed to System32"},
	{`Remove-Item -Recurse -Force ${PSHOME}\..\..\..`, "${PSHOME} climbed to the Windows directory"},
	{`Remove-Item -Recurse -Force $env:ProgramFiles\..\Windows`, "$env:ProgramFiles climbed"},
	{`rd /s /q "%ProgramFiles%\..\Windows\System32"`, "%ProgramFiles% climbed"},
	{`Remove-Item -Recurse -Force "${env:ProgramFiles(x86)}\..\Windows"`, "ProgramFiles(x86) climbed"},
	{`rd /s /q "%ProgramFiles(x86)%\..\Windows"`, "cmd's %ProgramFiles(x86)% climbed"},
	{`Remove-Item -Recurse -Force $env:USERPROFILE\..\..\Windows`, "$env:USERPROFILE climbed"},
	{`Remove-Item -Recurse -Force ~\..\..\Windows`, "home climbed"},
	{`Remove-Item -Recurse -Force ..\..\..\Windows`, "relative climb to the Windows directory"},
	{`rm -rf ../../../../Windows`, "relative climb, forward slashes"},
	{`Remove-Item -Recurse -Force ..\..\Windows\`, "two levels, trailing separator"},
	{`cd ..\..\..; Remove-Item -Recurse -Force Windows`, "cd climbs, then the Windows directory"},
	{`cd ..\..\..\..; rd /s /q Windows`, "cd climbs, cmd"},
	{`Set-Location -Path ..\..\..; Remove-Item -Recurse .\Windows`, "Set-Location climbs"},
	{`cd ../../..; rm -rf ../Windows`, "cd climbs, then a climb"},
	{`cd /d ..\..\.. && rd /s /q Windows`, "cmd cd /d"},
	{`pushd ..\..\..\..; Remove-Item -Recurse Windows`, "pushd climbs"},
	{`cd..\..\.. & rd /s /q Windows`, "cmd's cd.."},
	{`Set-Location -LiteralPath:..\..\..; Remove-Item -Recurse Windows`, "-LiteralPath:value"},
	{`cd C:\Users; Remove-Item -Recurse -Force ..\Windows`, "absolute cd, then a climb"},
	{`cd ..\..\..; Remove-Item -Recurse Windows\System32\drivers`, "cd climbs, then System32"},
	{`Remove-Item -Recurse -Force \\?\GLOBALROOT\SystemRoot`, "NT SystemRoot link"},
	{`Remove-Item -Recurse -Force \\?\GLOBALROOT\SystemRoot\System32`, "NT SystemRoot link, System32"},
	{`Remove-Item -Recurse -Force \\?\GLOBALROOT\GLOBAL??\C:\Windows`, "GLOBAL?? directory"},
	{`Remove-Item -Recurse -Force \\?\GLOBALROOT\DosDevices\C:\Windows\System32`, "DosDevices link"},
	{`Remove-Item -Recurse -Force \\?\GLOBALROOT\Device\Harddisk0\Partition3\Windows`, "HarddiskN\\PartitionN link"},
	{`Remove-Item -Recurse -Force \\?\GLOBALROOT\Device\BootDevice\Windows`, "BootDevice link"},
	{`Remove-Item -Recurse -Force \\?\Global\C:\Windows`, "Global link"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath([Environment+SpecialFolder]::Windows))`, "SpecialFolder enum"},
	{`Remove-Item -Recurse -Force ([System.Environment]::GetFolderPath('Windows'))`, "System.Environment"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath([System.Environment+SpecialFolder]::System))`, "System enum, full name"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath("SystemX86"))`, "SystemX86"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath(36))`, "Windows = 36"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath(37))`, "System = 37"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath( 41 ))`, "SystemX86 = 41"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath(0x24))`, "Windows = 0x24"},
	{`Remove-Item -Recurse -Force ([Environment]::GetFolderPath([Environment+SpecialFolder]36))`, "a cast of the number"},
	{`$f = [Environment+SpecialFolder]::Windows; Remove-Item -Recurse ([Environment]::GetFolderPath($f))`, "the enum value in a variable"},
	{`$f = [System.Environment+SpecialFolder]'System'; Remove-Item -Recurse ([Environment]::GetFolderPath($f))`, "a cast of the name"},
	{`Remove-Item -Recurse -Force ([Environment]::GetEnvironmentVariable('windir'))`, "GetEnvironmentVariable"},
	{`Remove-Item -Recurse -Force (Get-Item Env:windir).Value`, "Env: drive item"},
	{`Remove-Item -Recurse -Force (Get-Item Env:SystemRoot).Value`, "Env:SystemRoot"},
	{`Remove-Item -Recurse -Force (Get-Item Env:\windir).Value`, "Env:\\windir"},
	{`Remove-Item -Recurse -Force (Get-ChildItem Env:windir).Value`, "Get-ChildItem Env:windir"},
	{`Remove-Item -Recurse -Force (gc env:SystemRoot)`, "Get-Content of Env:"},
	{`Remove-Item -Recurse -Force (Get-Item Microsoft.PowerShell.Core\Environment::windir).Value`, "Environment provider path"},
	// clearing system files
	{`Clear-Content C:\Windows\System32\drivers\etc\hosts`, "Clear-Content"},
	{`clc C:\Windows\System32\config\SAM`, "clc alias"},
	{`Get-ChildItem C:\Windows\System32\*.dll | Clear-Content`, "piped into Clear-Content"},
	{`Clear-Content -Path $env:windir\System32\drivers\etc\hosts -Force`, "variable path"},
	// robocopy mirroring onto a protected place
	{`robocopy EMPTY C:\Windows /MIR`, "robocopy /MIR onto the Windows directory"},
	{`robocopy.exe C:\empty C:\Windows\System32 /PURGE`, "robocopy /PURGE onto System32"},
	{`robocopy EMPTY $env:windir /mir /r:0`, "robocopy onto $env:windir"},
	{`robocopy C:\empty C:\ /E /PURGE`, "robocopy /PURGE onto a drive root"},
	{`Start-Process robocopy -ArgumentList 'EMPTY C:\Windows /MIR'`, "Start-Process robocopy"},
	{`cmd /c "robocopy EMPTY C:\Windows\System32 /MIR"`, "cmd /c robocopy"},
	{`robocopy.exe EMPTY /c/Windows //MIR`, "Git Bash: a POSIX destination and a doubled slash"},
	{`robocopy C:\Windows\System32 D:\x /MOVE`, "robocopy /MOVE out of System32"},
	{`robocopy C:\Windows\System32 D:\x *.dll /MOV`, "robocopy /MOV out of System32"},
	// HKLM removal through .NET and WMI
	{`[Microsoft.Win32.Registry]::LocalMachine.DeleteSubKeyTree('SOFTWARE\x')`, "Registry.LocalMachine"},
	{`[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey('SOFTWARE\X', $true).DeleteValue('Y')`, "DeleteValue"},
	{`[Microsoft.Win32.RegistryKey]::OpenBaseKey('LocalMachine','Registry64').DeleteSubKeyTree('SOFTWARE\X')`, "OpenBaseKey"},
	{`[Microsoft.Win32.RegistryKey]::OpenBaseKey('LocalMachine','Registry64').DeleteSubKey('SOFTWARE\X')`, "DeleteSubKey"},
	{`[Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]::LocalMachine, [Microsoft.Win32.RegistryView]::Default).DeleteSubKeyTree('SOFTWARE\X')`, "RegistryHive enum"},
	{`[Microsoft.Win32.RegistryKey]::OpenBaseKey(-2147483646, 'Default').DeleteSubKeyTree('SOFTWARE\X')`, "RegistryHive as a number"},
	{`[Microsoft.Win32.RegistryKey]::OpenRemoteBaseKey('LocalMachine', 'localhost').DeleteSubKeyTree('SOFTWARE\X')`, "OpenRemoteBaseKey"},
	{`[Microsoft.Win32.Registry]::ClassesRoot.DeleteSubKeyTree('.txt')`, "Registry.ClassesRoot"},
	{`$k = [Microsoft.Win32.Registry]::CurrentConfig; $k.DeleteSubKeyTree('System')`, "Registry.CurrentConfig"},
	{`wmic /namespace:\\root\default path StdRegProv call DeleteKey hDefKey=2147483650 sSubKeyName="SOFTWARE\X"`, "wmic StdRegProv DeleteKey"},
	{`wmic /namespace:\\root\default path StdRegProv call DeleteKey hDefKey=0x80000002 sSubKeyName="SOFTWARE\X"`, "hex hive"},
	{`wmic /namespace:\\root\default path StdRegProv call DeleteKey hDefKey=2147483648 sSubKeyName=".txt"`, "HKCR"},
	{`wmic /namespace:\\root\default path StdRegProv call DeleteKey hDefKey=2147483653 sSubKeyName="System"`, "HKCC"},
	{`wmic /namespace:\\root\default path StdRegProv call DeleteValue hDefKey=2147483650 sSubKeyName="SOFTWARE\X" sValueName="Y"`, "DeleteValue"},
	{`wmic /namespace:\\root\default path StdRegProv call DeleteKey sSubKeyName="SOFTWARE\X"`, "no hDefKey: HKLM is the default"},
	{`Invoke-CimMethod -ClassName StdRegProv -MethodName DeleteKey -Arguments @{hDefKey=[uint32]2147483650; sSubKeyName='SOFTWARE\X'}`, "Invoke-CimMethod"},
	{`Invoke-CimMethod -Namespace root/default -ClassName StdRegProv -MethodName DeleteKey -Arguments @{sSubKeyName='SOFTWARE\X'}`, "Invoke-CimMethod without hDefKey"},
	{`Invoke-WmiMethod -Class StdRegProv -Name DeleteKey -ArgumentList 2147483650,'SOFTWARE\X'`, "Invoke-WmiMethod"},
	{`Set-Content x.reg "[-HKEY_LOCAL_MACHINE\SOFTWARE\X]"; reg import x.reg`, "a .reg removal entry"},
	{`echo [-HKEY_LOCAL_MACHINE\SOFTWARE\X] > x.reg && reg import x.reg`, "echo into a .reg"},
	{`Set-Content x.reg '[-HKLM\SOFTWARE\X]'; regedit /s x.reg`, "[-HKLM"},
	{`Set-Content x.reg '[-HKEY_CLASSES_ROOT\.txt]'; reg import x.reg`, "[-HKEY_CLASSES_ROOT"},
	{"Set-Content x.reg \"Windows Registry Editor Version 5.00`n[HKEY_LOCAL_MACHINE\\SOFTWARE\\X]`n`\"Y`\"=-\"; reg import x.reg", "a .reg value removal"},
	{"printf '[HKEY_LOCAL_MACHINE\\\\SOFTWARE\\\\X]\\n@=-\\n' > x.reg; reg import x.reg", "a .reg default value removal"},
	// disks and boot
	{`format /q /y /x /v:X /fs:NTFS /a:4096 /c /r:1 /p:0 D:`, "nine switches"},
	{"format" + strings.Repeat(" /q", 200) + " D:", "two hundred switches"},
	{`format %SystemDrive%`, "%SystemDrive%"},
	{`format $env:SystemDrive /q`, "$env:SystemDrive"},
	{`format ${env:SystemDrive} /y`, "${env:SystemDrive}"},
	{`format %HOMEDRIVE% /q /y`, "%HOMEDRIVE%"},
	{`cmd /v:on /c "format !SystemDrive! /q"`, "delayed expansion"},
	{`cmd /c "for %d in (C) do format %d: /q"`, "a for-loop variable as the drive"},
	{`for %%d in (C D) do format %%d: /q /y`, "a batch for-loop variable"},
	{`foreach ($d in 'D') { format "${d}:" /q }`, "a PowerShell loop variable"},
	{`foreach ($d in 'D') { format $d: /q }`, "a PowerShell loop variable, bare"},
	{`Get-CimInstance Win32_Volume -Filter "DriveLetter='D:'" | Invoke-CimMethod -MethodName Format`, "Win32_Volume Format"},
	{`Invoke-CimMethod -InputObject (Get-CimInstance Win32_Volume -Filter "DriveLetter='D:'") -MethodName Format -Arguments @{FileSystem='NTFS'}`, "Win32_Volume Format, InputObject"},
	{`(Get-WmiObject Win32_Volume -Filter "DriveLetter='D:'").Format('NTFS')`, "Win32_Volume .Format()"},
	{`Get-CimInstance -ClassName MSFT_Volume -Namespace root/Microsoft/Windows/Storage | Invoke-CimMethod -MethodName Format`, "MSFT_Volume Format"},
	{`wmic volume where "DriveLetter='D:'" call format`, "wmic volume call format"},
	{`wmic volume where DriveLetter="D:" call format FileSystem="NTFS" QuickFormat=true`, "wmic volume call format, arguments"},
	{`Resize-Partition -DriveLetter C -Size 50GB`, "Resize-Partition"},
	{`New-Partition -DiskNumber 1 -UseMaximumSize -AssignDriveLetter`, "New-Partition"},
	{`Set-Partition -DriveLetter D -NewDriveLetter X`, "Set-Partition"},
	{`Initialize-Disk -Number 1 -PartitionStyle GPT`, "Initialize-Disk"},
	{`Set-Disk -Number 0 -PartitionStyle GPT`, "Set-Disk -PartitionStyle"},
	{`Get-Disk 1 | Set-Disk -IsOffline $true`, "Set-Disk -IsOffline"},
	{`Get-PhysicalDisk | Reset-PhysicalDisk`, "Reset-PhysicalDisk"},
	{`Remove-VirtualDisk -FriendlyName x`, "Remove-VirtualDisk"},
	{`mbr2gpt /convert /allowFullOS`, "mbr2gpt /convert"},
	{`mbr2gpt.exe /disk:0 /convert`, "mbr2gpt.exe /convert after another switch"},
	{`dd if=/dev/zero of=\\.\PhysicalDrive0 bs=512 count=1`, "dd onto PhysicalDrive0"},
	{`dd if=x.img of=\\.\D: bs=1M`, "dd onto a volume device"},
	{`dd if=/dev/zero of=\\?\Device\Harddisk1\Partition0`, "dd onto an NT disk path"},
	{`dd if=/dev/zero of="\\.\PHYSICALDRIVE1"`, "dd onto a quoted device"},
	{`dd if=/dev/zero of=//./PhysicalDrive1`, "dd onto a device, forward slashes"},
	{`dd if=/dev/zero of=/dev/sda bs=1M`, "dd onto /dev/sda"},
	{`wsl -- dd if=/dev/zero of=/dev/nvme0n1`, "dd onto an NVMe disk"},
	{`dd if=/dev/zero of=\\.\GLOBALROOT\Device\Harddisk0\DR0`, "dd onto an NT raw disk"},
	{`bcdboot C:\Windows /s S: /f UEFI`, "bcdboot"},
	{`bootsect /nt60 C: /mbr`, "bootsect"},
	{`bootsect.exe /nt60 all /force`, "bootsect.exe"},
	{`Set-BcdElement -Element description -Type String -Value x`, "Set-BcdElement"},
	{`Remove-BcdEntry -Id '{current}'`, "Remove-BcdEntry"},
	{`New-BcdEntry -Description x`, "New-BcdEntry"},
	{`Set-BcdBootDefault -Id '{x}'`, "Set-BcdBootDefault"},
	{`Remove-BcdElement -Element bootmenupolicy`, "Remove-BcdElement"},
	{`Import-BcdStore -Path x.bcd`, "Import-BcdStore"},
	{`Copy-BcdEntry -Id '{current}'`, "Copy-BcdEntry"},
	{`Enable-BcdElementBootDebug`, "Enable-BcdElement…"},
	{`Microsoft.Windows.Bcd.Cmdlets\Set-BcdBootTimeout 0`, "module-qualified BCD cmdlet"},
}

func TestForbiddenIssue22(t *testing.T) {
	t.Parallel()
	for _, d := range forbidden22 {
		for _, tool := range ShellTools {
			if c, why := Decide(nil, nil, tool, map[string]any{"command": d.cmd}); c != tools.Forbidden {
				t.Errorf("%s: %s %q = %s (%s), want forbidden", d.what, tool, d.cmd, c, why)
			}
		}
	}
}

// nearMisses22 mention the words and places of the new rules without doing what they
// forbid; each must stay below forbidden (most are approval-required, some read-only).
var nearMisses22 = []string{
	// paths
	`Remove-Item -Recurse ..\windows`, `rm -rf ../windows`, `cd ..; rm -rf windows`, `rm -rf ../../*`,
	`cd ..\..; Remove-Item -Recurse build`, `cd ..\..\..; git status`, `Remove-Item $env:ProgramFiles\MyApp -Recurse`,
	`Remove-Item -Recurse $env:USERPROFILE\src\proj\build`, `Remove-Item -Recurse $env:LOCALAPPDATA\Temp\x`,
	`Remove-Item Env:MY_VAR`, `(Get-Item Env:windir).Value`, `Get-ChildItem $PSHOME`, `Get-Content $PSHOME\types.ps1xml`,
	`Remove-Item -Recurse ~\proj\bin`, `Remove-Item $PSHOME2\x`, `rm -rf $HOME/.cache/x`,
	`Remove-Item -Recurse -Force ([Environment]::GetFolderPath('MyDocuments') + '\x')`,
	`Remove-Item -Recurse ([Environment]::GetFolderPath(5))`, `[Environment]::GetFolderPath([Environment+SpecialFolder]::Windows)`,
	`Remove-Item Cert:\LocalMachine\My\0123456789ABCDEF`,
	// clearing
	`Clear-Content .\log.txt`, `clc .\out.txt`, `Clear-Content $env:TEMP\x.log`, `Get-Content C:\Windows\System32\drivers\etc\hosts`,
	`Clear-Content C:\Windows\Temp\setup.log`,
	// robocopy
	`robocopy C:\Windows\Logs .\logs`, `robocopy C:\Windows\Logs .\logs /MIR`, `robocopy .\src .\dst /MIR`,
	`robocopy C:\Windows\System32 .\sys32copy /E`, `robocopy C:\Windows\System32\drivers .\drv *.sys /MIR /R:0`,
	`robocopy .\out C:\Users\me\deploy /MIR`, `robocopy C:\src D:\dst /MIR /LOG:C:\robocopy.log`,
	`robocopy C:\src C:\Users\me\dst /MIR /XD C:\Windows`, `robocopy /?`, `robocopy .\a .\b /MOVE`,
	// registry
	`reg query HKLM\SOFTWARE\X`, `reg export HKLM\SOFTWARE\X x.reg`, `reg import x.reg`,
	`[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey('SOFTWARE\X')`,
	`[Microsoft.Win32.Registry]::CurrentUser.DeleteSubKeyTree('Software\MyApp')`,
	`[Microsoft.Win32.RegistryKey]::OpenBaseKey('CurrentUser','Registry64').DeleteSubKeyTree('Software\X')`,
	`wmic /namespace:\\root\default path StdRegProv call EnumKey hDefKey=2147483650 sSubKeyName="SOFTWARE"`,
	`Invoke-CimMethod -ClassName StdRegProv -MethodName DeleteKey -Arguments @{hDefKey=[uint32]2147483649; sSubKeyName='Software\X'}`,
	`wmic /namespace:\\root\default path StdRegProv call DeleteKey hDefKey=2147483649 sSubKeyName="Software\X"`,
	`Write-Output "[HKEY_LOCAL_MACHINE\SOFTWARE\X]"`, `Set-Content x.reg "[-HKEY_CURRENT_USER\Software\X]"; reg import x.reg`,
	`rm x; echo 2147483650`, `Get-Date -Format 'yyyy-MM-dd'; rm x`,
	// disks and boot
	"Get-Partition", "Get-Disk", "Get-Volume", "Get-PhysicalDisk", "Get-BcdStore", "Get-BcdEntry -Id '{current}'",
	"Export-BcdStore -File x.bcd", "Get-Help Get-Disk", "mbr2gpt /validate /allowFullOS",
	"go fmt ./...", "gofmt -l .", "dotnet format", "dotnet format --verify-no-changes", "Format-Table", "Format-List Name",
	"Get-CimInstance Win32_Volume | Format-Table", "Get-CimInstance Win32_Volume | Format-List DriveLetter, Capacity",
	"Get-CimInstance Win32_Volume | Out-File format.txt", "wmic volume get DriveLetter,Capacity",
	"git log --format=%H", `git log --format "%h: %s"`, "git log --pretty=format:%h:%s", `docker ps --format "{{.Names}}"`,
	"clang-format -i x.cpp", "prettier --write .", `Get-Date -Format "HH:mm"`, "Get-Date -Format $fmt",
	"format", "format /?", "echo formats %d:",
	`dd if=\\.\PhysicalDrive0 of=mbr.bin bs=512 count=1`, "dd if=/dev/zero of=/dev/null count=1", "dd if=x of=disk.img",
	"dd if=/dev/sda of=backup.img", `dd if=/dev/zero of=./sda`,
}

func TestNearMissesIssue22(t *testing.T) {
	t.Parallel()
	for _, cmd := range nearMisses22 {
		if c, why := Explain(cmd); c == tools.Forbidden {
			t.Errorf("Explain(%q) = forbidden (%s)", cmd, why)
		}
	}
}

// A .reg file is unknown to the classifier (it reads nothing but the command), so
// importing one is never read-only or reversible.
func TestRegImportAsks(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"reg import x.reg", "reg.exe import C:\\x.reg", "regedit /s x.reg", "regedit.exe /s x.reg", "reg import x.reg /reg:64"} {
		if c, why := Explain(cmd); c != tools.ApprovalRequired && c != tools.Forbidden {
			t.Errorf("Explain(%q) = %s (%s), want at least approval-required", cmd, c, why)
		}
	}
}

// The format rule reads any number of switches and stays linear: repeated format
// words and switches (each switch itself a format word) are read once.
func TestFormatSwitchRuns(t *testing.T) {
	t.Parallel()
	for _, n := range []int{8, 9, 100, 5000} {
		if c := Shell("format" + strings.Repeat(" /q", n) + " C:"); c != tools.Forbidden {
			t.Errorf("%d switches: %s", n, c)
		}
		if c := Shell("format" + strings.Repeat(" /q", n) + " build"); c == tools.Forbidden {
			t.Errorf("%d switches, no drive: forbidden", n)
		}
	}
	if c := Shell("format" + strings.Repeat(" /format", 20000) + " C:"); c != tools.Forbidden {
		t.Errorf("switches named format: %s", c)
	}
}

// TestForbidden22Corpus: the seed corpus of FuzzShellDifferential holds every spelling
// of forbidden22 and nearMisses22 (go test -run TestForbidden22Corpus -update rewrites
// them).
func TestForbidden22Corpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzShellDifferential")
	write := func(name, cmd string) {
		path := filepath.Join(dir, name)
		want := "go test fuzz v1\nstring(" + strconv.Quote(cmd) + ")\n"
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is stale or missing (run go test -run TestForbidden22Corpus -update): %v", path, err)
		}
	}
	want := map[string]bool{}
	for i, d := range forbidden22 {
		name := fmt.Sprintf("forbidden22-%03d", i)
		want[name] = true
		write(name, d.cmd)
	}
	for i, cmd := range nearMisses22 {
		name := fmt.Sprintf("nearmiss22-%03d", i)
		want[name] = true
		write(name, cmd)
	}
	// No seed of a row that is gone.
	for _, pattern := range []string{"forbidden22-*", "nearmiss22-*"} {
		extra, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, path := range extra {
			if want[filepath.Base(path)] {
				continue
			}
			if *update {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s has no row (run go test -run TestForbidden22Corpus -update)", path)
		}
	}
}

// BenchmarkForbiddenWorst: the repetitive inputs that would make the new rules
// quadratic if they rescanned (format switch runs, robocopy arguments, cd climbs).
func BenchmarkForbiddenWorst(b *testing.B) {
	for _, c := range []struct{ name, cmd string }{
		{"format-switches-60KB", "format" + strings.Repeat(" /format", 60<<10/8)},
		{"robocopy-60KB", strings.Repeat("robocopy ", 60<<10/9) + "/MIR"},
		{"cd-climbs-60KB", "rm x; " + strings.Repeat(`cd ..\..\ `, 60<<10/10)},
		{"getfolderpath-60KB", "rm " + strings.Repeat("GetFolderPath(", 60<<10/14)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.cmd)))
			for b.Loop() {
				Explain(c.cmd)
			}
		})
	}
}

// FuzzForbiddenRules: the scan never panics and answers one of its reasons; the path
// resolver reads / and \ alike (but for cd /d); and the format rule's memo of switch runs answers what
// reading every run afresh answers.
func FuzzForbiddenRules(f *testing.F) {
	for _, d := range forbidden22 {
		f.Add(d.cmd)
	}
	for _, cmd := range nearMisses22 {
		f.Add(cmd)
	}
	reasons := map[string]bool{"": true, reasonDiskpart: true, reasonBcdedit: true, reasonBoot: true, reasonFormat: true,
		reasonDiskCmdlet: true, reasonRawDisk: true, reasonCipher: true, reasonRegistry: true, reasonSystemPath: true}
	f.Fuzz(func(t *testing.T, cmd string) {
		v := fold(cmd)
		if why := scanView(v); !reasons[why] {
			t.Fatalf("scanView(%q) = %q, not a reason", cmd, why)
		}
		back := []byte(strings.ReplaceAll(string(v), "/", `\`))
		// cmd's cd /d is a switch, cd \d a directory: the one place a slash is not a separator.
		if a, b := protectedPath(v), protectedPath(back); a != b && !strings.Contains(string(v), "/d") {
			t.Fatalf("protectedPath(%q) = %v, with backslashes %v", v, a, b)
		}
		var memo scanState
		var shared, fresh bool
		for i := 0; i < len(v); i++ {
			if (i == 0 || !isWord(v[i-1])) && wordAt(v, i, "format") {
				shared = memo.formatsDrive(v, i, i+6) || shared
				var st scanState
				fresh = st.formatsDrive(v, i, i+6) || fresh
			}
		}
		if shared != fresh {
			t.Fatalf("format rule on %q: memo %v, afresh %v", v, shared, fresh)
		}
	})
}
