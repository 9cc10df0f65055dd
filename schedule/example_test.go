package schedule_test

import (
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

func ExampleParseSpec() {
	paris, _ := time.LoadLocation("Europe/Paris")
	s, err := schedule.ParseSpec("0 3 * * *", paris, 0, "quantum-diaries")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Next(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)))

	_, err = schedule.ParseSpec("0 25 * * *", nil, 0, "x")
	fmt.Println(err)
	// Output:
	// 2026-07-02 01:00:00 +0000 UTC
	// invalid schedule "0 25 * * *": end of range (25) above maximum (23): 25
}

func ExampleNextAfterFailure() {
	s, _ := schedule.ParseSpec("0 3 * * *", time.UTC, 0, "")
	now := time.Date(2026, 1, 1, 3, 5, 0, 0, time.UTC)
	for failures := 1; failures <= 3; failures++ {
		now = schedule.NextAfterFailure(s, failures, now)
		fmt.Println(now.Format("15:04"))
	}
	// Output:
	// 03:06
	// 03:08
	// 03:12
}
