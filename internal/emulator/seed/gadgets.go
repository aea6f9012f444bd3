package seed

import (
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// seedGadgets fills acme/gadgets, the private repository: 20 issues
// (two of them pull requests) about a smart-home hub, composed from its
// own vocabulary and labeled with its own labels.
func (sd *seeder) seedGadgets(w *world) {
	g := &repoGen{
		sd: sd, w: w, r: w.gadgets, v: gadgetsVocab(),
		labels: labelRoles{bug: "bug", feature: "feature", question: "question", wontfix: "wontfix",
			triage: "needs repro", blocked: "blocked"},
		start: day(2026, time.February, 2).Add(10 * time.Hour), spacing: 8 * 24 * time.Hour, count: 20,
		typed: true, untriagedFrom: 19,
		authors:   []*state.Account{w.alice, w.bob, w.bob, w.carol, w.carol},
		triagers:  w.maintainers(),
		assignees: w.members(),
		pulls:     []int{7, 15},
		pullFate: func(i int) string {
			if i == 0 {
				return "merged"
			}
			return "open"
		},
		closeOdds: func(n int) int {
			if n < 10 {
				return 55
			}
			return 20
		},
	}
	g.milestone = func(p *plan, reason string) *state.Milestone {
		if p.created.Before(day(2026, time.June, 1)) && p.kind != kindQuestion && reason != "not_planned" && sd.chance(40) {
			return w.hub32
		}
		return nil
	}
	g.generate()
}

func gadgetsVocab() *vocab {
	return &vocab{
		components: []component{
			{"the pairing flow", "Pairing flow", "app", true, "Factory-reset the hub and start pairing from the app", "PairingScreen"},
			{"the iOS app", "iOS app", "app", true, "Install the current TestFlight build", "HomeViewController"},
			{"the Android app", "Android app", "app", true, "Install the Play Store beta", "MainActivity"},
			{"the notification service", "Notification service", "app", true, "Enable the alert for 'temperature above 28 °C'", "NotificationService"},
			{"the OTA updater", "OTA updater", "firmware", false, "Flash firmware 3.1.4 over USB", "ota"},
			{"the BLE bridge", "BLE bridge", "firmware", false, "Pair two BLE sensors with the hub", "ble_bridge"},
			{"Wi-Fi provisioning", "Wi-Fi provisioning", "firmware", false, "Start provisioning by holding the button for 5 seconds", "wifi_prov"},
			{"the temperature sensor driver", "Temperature sensor driver", "hardware", false, "Place the hub next to a reference thermometer", "sht4x"},
			{"the battery monitor", "Battery monitor", "hardware", false, "Run the hub on battery from a full charge", "bat_mon"},
		},
		frontSymptoms: []symptom{
			{"crashes on launch", "The app opens to the home screen."},
			{"shows the hub as offline", "The hub shows as online whenever it is reachable."},
			{"drains the phone battery", "Background use stays under 2% of the battery per day."},
			{"forgets the paired hub", "The pairing survives app restarts and updates."},
			{"shows readings from the wrong room", "Each room shows its own sensor readings."},
		},
		backSymptoms: []symptom{
			{"reboots in a loop", "The hub boots once and stays up."},
			{"hangs until power-cycled", "The hub keeps running."},
		},
		ownSymptoms: map[string][]symptom{
			"OTA updater": {
				{"fails with `ESP_ERR_OTA_VALIDATE_FAILED`", "The update installs and the hub reboots into the new version."},
				{"rolls back to the previous firmware", "The hub boots the new firmware and marks it valid."},
			},
			"BLE bridge": {
				{"stops advertising", "The hub keeps advertising and sensors reconnect on their own."},
				{"drops every other sensor reading", "Every reading arrives in the app."},
			},
			"Wi-Fi provisioning": {
				{"drops the Wi-Fi connection every few hours", "The connection stays up for days."},
				{"never finishes", "Provisioning completes in under a minute."},
			},
			"Temperature sensor driver": {
				{"reports temperatures about 3 °C too high", "Readings within ±0.3 °C of the reference."},
				{"returns the same reading for hours", "Readings follow the room temperature."},
			},
			"Battery monitor": {
				{"shows 100% until the hub shuts down", "The level drops steadily and a warning comes at 15%."},
				{"stops charging at 80%", "The battery charges to 100%."},
			},
		},
		frontConditions: []condition{
			{"on Android 15", "Use a phone running Android 15"},
			{"after the phone restarts", "Restart the phone"},
			{"with two hubs in the same home", "Add a second hub to the same home"},
			{"when Bluetooth access is set to 'Ask every time'", "Set the app's Bluetooth permission to 'Ask every time'"},
		},
		backConditions: []condition{
			{"after an OTA update", "Start an OTA update to 3.2.0-beta.2 from the app"},
			{"on board revision C", "Use a revision C hub (sticker on the bottom)"},
			{"when the signal is below -80 dBm", "Move the hub two rooms away from the access point"},
			{"below 5 °C", "Leave the hub in an unheated garage overnight"},
			{"on a 5 GHz-only network", "Connect to an access point with 2.4 GHz disabled"},
		},
		releases: []release{
			{"3.0.2", day(2025, time.November, 12)},
			{"3.1.0", day(2026, time.February, 10)},
			{"3.1.4", day(2026, time.April, 20)},
			{"3.2.0-beta.2", day(2026, time.June, 22)},
		},
		frontEnvs: []string{"iPhone 15, iOS 18.3, app 2.8.1", "Pixel 8, Android 15, app 2.8.1", "Galaxy S23, Android 14, app 2.7.9"},
		backEnvs:  []string{"hub revision C on a Ubiquiti U6 access point", "hub revision B on a FritzBox 7590", "hub revision C, two BLE sensors"},
		ideas: []idea{
			{"Matter bridge mode",
				"Customers with other ecosystems cannot see our sensors at all.",
				"Expose paired BLE sensors as Matter devices, so any Matter controller can read them.",
				"A cloud-to-cloud integration per ecosystem, which means three integrations to maintain."},
			{"Export sensor history as CSV from the app",
				"Support asks for history exports to debug heating problems and we pull them from the database by hand.",
				"A **Share history** action per sensor that exports the last 30 days as CSV.",
				"Screenshots of the graphs, which are not precise enough."},
			{"Show the firmware changelog before updating",
				"People postpone updates because they do not know what changes.",
				"Show the release notes in the update dialog, fetched with the update manifest.",
				"Linking to a web page, which nobody opens."},
		},
		frontWishes: []string{"per-room alerts", "a home screen widget", "a quiet-hours schedule"},
		backWishes:  []string{"an offline mode", "a low-power mode", "a local MQTT broker option"},
		frontChores: []string{"Migrate %s to the new navigation library", "Add UI tests for %s", "Rewrite the state machine of %s"},
		backChores:  []string{"Add hardware-in-the-loop tests for %s", "Reduce the flash usage of %s", "Rewrite the state machine of %s"},
		docTopics:   []string{"the factory reset procedure", "OTA rollback", "the BLE pairing protocol", "the LED status codes"},
		questions: []qa{
			{"Which access points are known to cause disconnects?",
				"So far: older Ubiquiti firmware with 'minimum RSSI' enabled, and mesh systems that steer 2.4 GHz clients aggressively. The list is on the wiki page 'Hub Wi-Fi compatibility'."},
			{"Can the hub run without cloud access?",
				"Partly: sensors keep logging and local automations keep running, but the app needs the cloud to reach the hub from outside the home network."},
		},
		deps: []dep{
			{"esp-idf", "5.2.3", "5.3.2", "firmware/idf_component.yml"},
			{"react-native", "0.76.5", "0.77.0", "app/package.json"},
		},
		details: []string{
			"It happens on two of our three test units.",
			"A power cycle fixes it for a few hours.",
			"It started with the last firmware update.",
			"The serial console shows nothing unusual before it happens.",
		},
		frontLast: []string{"Open the app and wait on the home screen", "Put the app in the background for ten minutes and reopen it"},
		backLast:  []string{"Watch the serial console at 115200 baud", "Leave it running overnight and check the uptime counter"},
		snippets: []string{
			"```text\nI (1532) wifi: connected to ap SSID:acme-lab, channel 6, rssi -71\nI (1540) cloud: mqtt connected\n```",
		},
		comments: gadgetsComments,
		log:      gadgetsLog,
		logLang:  "text",
	}
}

func gadgetsComments(k kind) commentPools {
	if k == kindBug {
		return commentPools{
			first: []string{
				"Thanks @{author}. Which hub revision is this, and can you attach the serial log from boot?",
				"Reproduced on a revision C unit on my desk with {version}.",
			},
			reply: []string{
				"Revision C. Log attached above; it always stops at the same line.",
			},
			others: []string{
				"Same on the two units in the lab.",
				"Could be the same brown-out issue as #{ref}.",
			},
			closing: []string{
				"Fixed in the next firmware build; the beta channel has it now.",
			},
		}
	}
	return commentPools{
		first:   []string{"Makes sense. Let's discuss it in Thursday's planning.", "I'll take this one."},
		reply:   []string{"Thanks! I added a few notes from the customer calls."},
		others:  []string{"+1, this comes up in support a lot.", "Related to #{ref}."},
		closing: []string{"Done, it is in the latest beta.", "Closing, finished."},
	}
}

// gadgetsLog is an ESP-IDF serial log or an Android crash trace.
func gadgetsLog(sd *seeder, c component, at time.Time) string {
	if c.front {
		return fmt.Sprintf("FATAL EXCEPTION: main\nProcess: com.acme.gadgets, PID: %d\n"+
			"java.lang.IllegalStateException: hub id is null\n\tat com.acme.gadgets.%s.onResume(%s.kt:%d)",
			3000+sd.rng.IntN(20000), c.file, c.file, 40+sd.rng.IntN(200))
	}
	ms := 1000 + sd.rng.IntN(90000)
	return fmt.Sprintf("I (%d) %s: start\nE (%d) %s: operation failed: ESP_FAIL (0x%x)\nW (%d) %s: retrying in 5000 ms",
		ms, c.file, ms+120+sd.rng.IntN(800), c.file, 0x100+sd.rng.IntN(0x100), ms+1000, c.file)
}
